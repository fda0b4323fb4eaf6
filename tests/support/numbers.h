#pragma once
// Helpers for phone-number tests through the public API and the staff command line.

#include <string>
#include <vector>

#include "tests/support/accounts.h"

namespace smsgw::testing {

// A random subscriber number in `area_code` (exchange 200-999), different in every process.
std::string randomSubscriber(const std::string& area_code);
// Verifies the owner phone by SMS through the simulator, as a customer would.
void verifyOwnerPhone(HttpTestClient& api, const TestAccount& account);
// A funded account whose owner phone is verified: it may provision numbers.
TestAccount readyToBuy(HttpTestClient& api, long long cents = 5000);
// The first number a search of `area_code` offers.
std::string availableNumber(HttpTestClient& api, const TestAccount& account,
                            const std::string& area_code);
// Provisions a number from `area_code` and expects 201; returns the PhoneNumber.
nlohmann::json buyNumber(HttpTestClient& api, const TestAccount& account,
                         const std::string& area_code);
// Records the subscriber's express consent with the account's LIVE key; returns `phone`.
std::string withLiveConsent(HttpTestClient& api, const TestAccount& account,
                            const std::string& phone);
long long balanceOf(HttpTestClient& api, const TestAccount& account);
// The sum of every ledger row of the account (all pages).
long long ledgerSum(HttpTestClient& api, const TestAccount& account);

struct AdminRun {
  int exit_code = -1;
  nlohmann::json output;              // the command's JSON line, or null
  std::vector<nlohmann::json> lines;  // every line, for commands that print one per item
};
// Runs smsgw-admin from the build under test with the stack's environment.
AdminRun runAdmin(const std::string& arguments);

}  // namespace smsgw::testing
