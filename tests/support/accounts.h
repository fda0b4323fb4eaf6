#pragma once
// Test helpers that make accounts through the public API, as a customer would.

#include <string>

#include "tests/support/http_test_client.h"

namespace smsgw::testing {

struct TestAccount {
  std::string id;
  std::string email;
  std::string password;
  std::string test_key;
  std::string live_key;
};

TestAccount signUp(HttpTestClient& api);
// Signs up and tops up (LIVE keys then work).
TestAccount signUpAndFund(HttpTestClient& api, long long cents = 5000);
std::string uniqueSuffix();

}  // namespace smsgw::testing
