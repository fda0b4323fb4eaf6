#pragma once
// Signatures on the carrier's HTTP callbacks (receipts and inbound texts) to the gateway:
//   X-Carrier-Timestamp: Unix seconds
//   X-Carrier-Signature: hex(HMAC-SHA256(secret, "{timestamp}.{raw body}"))
// Callbacks older or newer than the tolerance are refused (replay protection).

#include <string>
#include <string_view>

namespace smsgw {

inline constexpr long long kCarrierCallbackToleranceSeconds = 300;

std::string signCarrierCallback(std::string_view secret, long long timestamp,
                                std::string_view body);
bool verifyCarrierCallback(std::string_view secret, std::string_view timestamp_header,
                           std::string_view signature_header, std::string_view body,
                           long long now_unix);

}  // namespace smsgw
