#include "domain/telnyx_signature.h"

#include <fmt/format.h>

#include <charconv>
#include <cstdlib>
#include <stdexcept>

#include "domain/crypto.h"
#include "domain/ed25519.h"

namespace smsgw {
namespace {

std::string signedText(long long timestamp, std::string_view body) {
  return fmt::format("{}|{}", timestamp, body);
}

}  // namespace

std::string signTelnyxWebhook(std::string_view private_key, long long timestamp,
                              std::string_view body) {
  return crypto::base64(crypto::ed25519Sign(private_key, signedText(timestamp, body)));
}

bool verifyTelnyxWebhook(std::string_view public_key_base64, std::string_view timestamp_header,
                         std::string_view signature_header, std::string_view body,
                         long long now_unix) {
  long long timestamp = 0;
  const char* end = timestamp_header.data() + timestamp_header.size();
  auto parsed = std::from_chars(timestamp_header.data(), end, timestamp);
  if (timestamp_header.empty() || timestamp_header.size() > 12 || parsed.ec != std::errc() ||
      parsed.ptr != end || std::llabs(now_unix - timestamp) > kTelnyxSignatureToleranceSeconds)
    return false;
  try {
    return crypto::ed25519Verify(crypto::base64Decode(public_key_base64),
                                 signedText(timestamp, body),
                                 crypto::base64Decode(signature_header));
  } catch (const std::invalid_argument&) {  // a key or signature that is not base64
    return false;
  }
}

}  // namespace smsgw
