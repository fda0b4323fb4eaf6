#pragma once
// LIVE customers for the tests that run the real binaries on a scratch database (crash,
// replay, scale-out): each a verified, funded account with numbers bought through the purchase
// service, a LIVE key and express consent from its recipients, written straight into the
// database. And a careful client that sends for them. No GoogleTest here: this library is
// linked beside the test support library, and a second copy of GoogleTest's globals in the
// process would be freed twice at exit. Failures are thrown or returned for the test to judge.

#include <chrono>
#include <string>
#include <vector>

#include "db/database.h"

namespace smsgw::testing {

struct LiveCustomer {
  std::string id;
  std::string key;  // a LIVE API key's secret
  std::vector<std::string> numbers;
  std::vector<std::string> recipients;  // each has given express consent
};

// Makes customers whose numbers and recipients never repeat within one factory's database.
class LiveCustomerFactory {
 public:
  explicit LiveCustomerFactory(db::Database& db) : db_(db) {}
  // Throws std::runtime_error when a number cannot be bought.
  LiveCustomer make(int numbers, int recipients, long long balance_cents = 100000);

 private:
  db::Database& db_;
  int next_number_ = 0;
  int next_recipient_ = 0;
};

struct AcceptedSend {
  std::string id;
  std::string body;
};

struct CarefulSends {
  std::vector<AcceptedSend> accepted;
  std::vector<std::string> refusals;  // status and body of each send the API refused
};

// Sends `count` texts as a careful client would: from the customer's numbers in turn, to its
// recipients in turn, each with its own Idempotency-Key (`tag` + index), retrying a transport
// error, a 5xx or a 409 with the same key until the API answers 201.
CarefulSends sendAsCarefulClient(const std::string& api_url, const LiveCustomer& customer,
                                 int count, const std::string& tag);

}  // namespace smsgw::testing
