#pragma once
// Ed25519 signatures (RFC 8032) over raw keys, through OpenSSL: Telnyx signs its webhooks with
// them (carrier_callback.h), and the carrier simulator signs as Telnyx does. Stateless and
// thread-safe.

#include <string>
#include <string_view>

namespace smsgw::crypto {

inline constexpr size_t kEd25519KeyBytes = 32;
inline constexpr size_t kEd25519SignatureBytes = 64;

struct Ed25519KeyPair {
  std::string private_key;  // the 32-byte seed
  std::string public_key;   // 32 bytes
};

Ed25519KeyPair newEd25519KeyPair();
// The public key of a 32-byte private key (a seed); throws std::invalid_argument on another size.
std::string ed25519PublicKey(std::string_view private_key);
// The 64-byte signature of `message`; throws std::invalid_argument on a key of the wrong size.
std::string ed25519Sign(std::string_view private_key, std::string_view message);
// False for a bad signature, and for a key or signature of the wrong size.
bool ed25519Verify(std::string_view public_key, std::string_view message,
                   std::string_view signature);

}  // namespace smsgw::crypto
