#include "domain/carrier_callback.h"

#include <fmt/format.h>

#include <charconv>
#include <cstdlib>
#include <optional>
#include <stdexcept>

#include "domain/crypto.h"
#include "domain/ed25519.h"

namespace smsgw {
namespace {

// The timestamp header's seconds when they are digits only and within the tolerance of now.
std::optional<long long> timestampWithinTolerance(std::string_view header, long long now_unix) {
  long long timestamp = 0;
  const char* end = header.data() + header.size();
  auto parsed = std::from_chars(header.data(), end, timestamp);
  if (header.empty() || header.size() > 12 || parsed.ec != std::errc() || parsed.ptr != end ||
      std::llabs(now_unix - timestamp) > kCarrierCallbackToleranceSeconds)
    return std::nullopt;
  return timestamp;
}

std::string telnyxSignedText(long long timestamp, std::string_view body) {
  return fmt::format("{}|{}", timestamp, body);
}

}  // namespace

std::string signTelnyxWebhook(std::string_view private_key, long long timestamp,
                              std::string_view body) {
  return crypto::base64(crypto::ed25519Sign(private_key, telnyxSignedText(timestamp, body)));
}

bool verifyTelnyxWebhook(std::string_view public_key_base64, std::string_view timestamp_header,
                         std::string_view signature_header, std::string_view body,
                         long long now_unix) {
  auto timestamp = timestampWithinTolerance(timestamp_header, now_unix);
  if (!timestamp) return false;
  try {
    return crypto::ed25519Verify(crypto::base64Decode(public_key_base64),
                                 telnyxSignedText(*timestamp, body),
                                 crypto::base64Decode(signature_header));
  } catch (const std::invalid_argument&) {  // a key or signature that is not base64
    return false;
  }
}

bool isEd25519PublicKey(std::string_view base64) {
  try {
    return crypto::base64Decode(base64).size() == crypto::kEd25519KeyBytes;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

}  // namespace smsgw
