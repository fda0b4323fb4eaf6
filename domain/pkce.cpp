#include "domain/pkce.h"

#include <algorithm>

#include "domain/crypto.h"

namespace smsgw::oauth {
namespace {

bool unreserved(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

bool base64UrlCharacter(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_';
}

}  // namespace

bool wellFormedVerifier(std::string_view verifier) {
  return verifier.size() >= 43 && verifier.size() <= 128 &&
         std::all_of(verifier.begin(), verifier.end(), unreserved);
}

bool wellFormedChallenge(std::string_view challenge) {
  return challenge.size() == 43 &&
         std::all_of(challenge.begin(), challenge.end(), base64UrlCharacter);
}

std::string challengeOf(std::string_view verifier) {
  std::string text = crypto::base64(crypto::sha256(verifier));
  std::replace(text.begin(), text.end(), '+', '-');
  std::replace(text.begin(), text.end(), '/', '_');
  text.erase(std::find(text.begin(), text.end(), '='), text.end());
  return text;
}

bool verifierMatches(std::string_view challenge, std::string_view verifier) {
  return wellFormedVerifier(verifier) &&
         crypto::constantTimeEquals(challengeOf(verifier), challenge);
}

}  // namespace smsgw::oauth
