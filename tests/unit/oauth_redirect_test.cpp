// Redirect URIs an OAuth client may register and present (adapters/oauth_redirect.h).
#include "adapters/oauth_redirect.h"

#include <gtest/gtest.h>

using namespace smsgw::oauth;

TEST(OAuthRedirect, HttpsOrLoopbackHttpOnlyWithoutFragmentsOrCredentials) {
  EXPECT_EQ(checkRedirectUri("https://app.example.ca/callback"), RedirectVerdict::Allowed);
  EXPECT_EQ(checkRedirectUri("http://127.0.0.1:33418/callback"), RedirectVerdict::Allowed);
  EXPECT_EQ(checkRedirectUri("http://localhost:8765/cb?x=1"), RedirectVerdict::Allowed);
  EXPECT_EQ(checkRedirectUri("http://[::1]/cb"), RedirectVerdict::Allowed);
  EXPECT_EQ(checkRedirectUri("http://app.example.ca/callback"), RedirectVerdict::NotHttps);
  EXPECT_EQ(checkRedirectUri("http://127.0.0.1.evil.example/cb"), RedirectVerdict::NotHttps);
  EXPECT_EQ(checkRedirectUri("javascript:alert(1)"), RedirectVerdict::NotAbsolute);
  EXPECT_EQ(checkRedirectUri("myapp://callback"), RedirectVerdict::NotHttps);
  EXPECT_EQ(checkRedirectUri("/relative/callback"), RedirectVerdict::NotAbsolute);
  EXPECT_EQ(checkRedirectUri("https://app.example.ca/cb#frag"), RedirectVerdict::HasFragment);
  EXPECT_EQ(checkRedirectUri("https://user:pw@app.example.ca/cb"), RedirectVerdict::HasCredentials);
}

TEST(OAuthRedirect, APresentedUriIsTheRegisteredOneExactlyExceptALoopbackPort) {
  EXPECT_TRUE(redirectUriMatches("https://app.example.ca/cb", "https://app.example.ca/cb"));
  EXPECT_FALSE(redirectUriMatches("https://app.example.ca/cb", "https://app.example.ca/cb/"));
  EXPECT_FALSE(redirectUriMatches("https://app.example.ca/cb", "https://app.example.ca/cb?x=1"));
  EXPECT_FALSE(redirectUriMatches("https://app.example.ca/cb", "https://app.example.ca:444/cb"));
  EXPECT_FALSE(redirectUriMatches("https://app.example.ca/cb", "https://evil.example/cb"));
  // A native app's loopback listener gets a new port each run (RFC 8252 section 7.3).
  EXPECT_TRUE(redirectUriMatches("http://127.0.0.1/cb", "http://127.0.0.1:51234/cb"));
  EXPECT_TRUE(redirectUriMatches("http://127.0.0.1:1000/cb", "http://127.0.0.1:2000/cb"));
  EXPECT_FALSE(redirectUriMatches("http://127.0.0.1/cb", "http://127.0.0.1:51234/other"));
  EXPECT_FALSE(redirectUriMatches("http://127.0.0.1/cb", "http://localhost:51234/cb"));
  EXPECT_FALSE(redirectUriMatches("http://127.0.0.1/cb", "http://127.0.0.1:51234/cb#x"));
}
