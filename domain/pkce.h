#pragma once
// PKCE (RFC 7636) as OAuth 2.1 requires it: S256 only. A client sends
// code_challenge = BASE64URL(SHA-256(code_verifier)) when it asks for a code, and the verifier
// itself when it exchanges the code; the server keeps the challenge and compares.

#include <string>
#include <string_view>

namespace smsgw::oauth {

// 43 to 128 characters of A-Z, a-z, 0-9, '-', '.', '_', '~' (RFC 7636 section 4.1).
bool wellFormedVerifier(std::string_view verifier);
// A challenge as a client sends it: 43 base64url characters (a SHA-256 digest, unpadded).
bool wellFormedChallenge(std::string_view challenge);
// BASE64URL(SHA-256(verifier)) without padding.
std::string challengeOf(std::string_view verifier);
// Whether `verifier` is well formed and hashes to `challenge` (compared in constant time).
bool verifierMatches(std::string_view challenge, std::string_view verifier);

}  // namespace smsgw::oauth
