#include "domain/carrier_callback.h"

#include <fmt/format.h>

#include <cstdlib>

#include "domain/crypto.h"

namespace smsgw {

std::string signCarrierCallback(std::string_view secret, long long timestamp,
                                std::string_view body) {
  return crypto::hex(crypto::hmacSha256(secret, fmt::format("{}.{}", timestamp, body)));
}

bool verifyCarrierCallback(std::string_view secret, std::string_view timestamp_header,
                           std::string_view signature_header, std::string_view body,
                           long long now_unix) {
  if (secret.empty() || timestamp_header.empty() || timestamp_header.size() > 12) return false;
  std::string ts(timestamp_header);
  char* end = nullptr;
  long long timestamp = std::strtoll(ts.c_str(), &end, 10);
  if (*end != '\0' || std::llabs(now_unix - timestamp) > kCarrierCallbackToleranceSeconds)
    return false;
  return crypto::constantTimeEquals(signCarrierCallback(secret, timestamp, body), signature_header);
}

}  // namespace smsgw
