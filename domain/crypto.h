#pragma once
// Thin wrappers over OpenSSL: randomness, digests, HMAC, base64 and password hashing.
// Stateless and thread-safe.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace smsgw::crypto {

std::string randomBytes(size_t count);
std::string hex(std::string_view bytes);
std::string base64(std::string_view bytes);
std::string base64Decode(std::string_view text);  // throws std::invalid_argument
std::string sha256(std::string_view data);        // raw 32 bytes
std::string sha256Hex(std::string_view data);
std::string hmacSha256(std::string_view key, std::string_view data);  // raw 32 bytes
bool constantTimeEquals(std::string_view a, std::string_view b);

// scrypt with a random salt; the result carries its parameters so they can change later.
std::string hashPassword(std::string_view password);
bool verifyPassword(std::string_view password, std::string_view stored);

// A random version-4 UUID in canonical text form.
std::string uuid4();
// RFC 9562 version 7: the time in milliseconds, then 74 random bits; sorts by creation time
// (event ids, so the events table's primary key grows at its right edge). `made_at` is the
// time it carries (a test passes its own).
std::string uuid7(std::chrono::system_clock::time_point made_at = std::chrono::system_clock::now());

// `count` decimal digits from the CSPRNG, each uniform (bytes of 250 and above are drawn again).
std::string randomDigits(size_t count);

// AES-256-GCM under a 32-byte key: base64(nonce | ciphertext | tag). openSealed gives back the
// plaintext, or nothing when the text was not sealed under this key or was altered.
std::string seal(std::string_view key, std::string_view plaintext);
std::optional<std::string> openSealed(std::string_view key, std::string_view sealed);

}  // namespace smsgw::crypto
