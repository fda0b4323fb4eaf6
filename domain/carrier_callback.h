#pragma once
// Signatures on the carrier's HTTP callbacks (receipts and inbound texts) to the gateway, as
// Telnyx's Messaging API v2 sends them:
//   telnyx-timestamp: Unix seconds
//   telnyx-signature-ed25519: base64(Ed25519 signature of "{timestamp}|{raw body}")
// checked with the account's public key (Mission Control, Keys & Credentials: the 32 raw bytes
// in base64). A callback signed further than the tolerance from now is refused (a replay
// window, as Telnyx's SDKs keep).

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

// Whether `base64` is a public key as Telnyx shows it: base64 of 32 raw bytes.
bool isEd25519PublicKey(std::string_view base64);

}  // namespace smsgw
