#pragma once
// Signatures on the carrier's HTTP callbacks (receipts and inbound texts) to the gateway. Both
// schemes refuse a callback signed further than the tolerance from now (a replay window).
//
// Telnyx's, as its Messaging API v2 sends them:
//   telnyx-timestamp: Unix seconds
//   telnyx-signature-ed25519: base64(Ed25519 signature of "{timestamp}|{raw body}")
// checked with the account's public key (Mission Control, Keys & Credentials: the 32 raw bytes
// in base64).
//
// The simulator's own, still used by the callback route until it checks Telnyx's (issue 36):
//   X-Carrier-Timestamp: Unix seconds
//   X-Carrier-Signature: hex(HMAC-SHA256(secret, "{timestamp}.{raw body}"))

#include <string>
#include <string_view>

namespace smsgw {

inline constexpr long long kCarrierCallbackToleranceSeconds = 300;

// The header value for `body` signed at `timestamp` with a 32-byte private key (the simulator).
std::string signTelnyxWebhook(std::string_view private_key, long long timestamp,
                              std::string_view body);
// False for anything but a signature of this body at a timestamp within the tolerance by this
// key, including headers and keys that are not what Telnyx sends.
bool verifyTelnyxWebhook(std::string_view public_key_base64, std::string_view timestamp_header,
                         std::string_view signature_header, std::string_view body,
                         long long now_unix);

std::string signCarrierCallback(std::string_view secret, long long timestamp,
                                std::string_view body);
bool verifyCarrierCallback(std::string_view secret, std::string_view timestamp_header,
                           std::string_view signature_header, std::string_view body,
                           long long now_unix);

}  // namespace smsgw
