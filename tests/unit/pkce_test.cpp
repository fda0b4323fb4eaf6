// PKCE S256 (RFC 7636): the RFC's own example, and what a verifier may be made of.
#include "domain/pkce.h"

#include <gtest/gtest.h>

#include <string>

using namespace smsgw::oauth;

TEST(Pkce, TheRfcExampleVerifierHashesToItsChallenge) {
  // RFC 7636, appendix B.
  const std::string verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
  const std::string challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
  EXPECT_EQ(challengeOf(verifier), challenge);
  EXPECT_TRUE(wellFormedChallenge(challenge));
  EXPECT_TRUE(verifierMatches(challenge, verifier));
  EXPECT_FALSE(verifierMatches(challenge, verifier.substr(0, 42) + "Y"));
  EXPECT_FALSE(verifierMatches(challenge, challenge)) << "the challenge is not its own verifier";
}

TEST(Pkce, AVerifierIs43To128UnreservedCharacters) {
  EXPECT_FALSE(wellFormedVerifier(std::string(42, 'a')));
  EXPECT_TRUE(wellFormedVerifier(std::string(43, 'a')));
  EXPECT_TRUE(wellFormedVerifier(std::string(128, '~')));
  EXPECT_FALSE(wellFormedVerifier(std::string(129, 'a')));
  EXPECT_FALSE(wellFormedVerifier(std::string(42, 'a') + "+"));
  EXPECT_FALSE(wellFormedVerifier(std::string(42, 'a') + " "));
  // A plain challenge (the verifier itself, method "plain") is refused by its shape too when
  // it is not 43 base64url characters.
  EXPECT_FALSE(wellFormedChallenge(std::string(44, 'a')));
  EXPECT_FALSE(wellFormedChallenge(std::string(42, 'a') + "."));
}
