#include "tests/support/live_customers.h"

#include <soci/soci.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <thread>

#include "adapters/http_client.h"
#include "db/ledger.h"
#include "domain/api_key.h"
#include "domain/ids.h"
#include "domain/permissions.h"
#include "services/numbers/purchase.h"
#include "tests/support/fake_carrier.h"

namespace smsgw::testing {

LiveCustomer LiveCustomerFactory::make(int numbers, int recipients, long long balance_cents) {
  LiveCustomer c;
  c.id = newId("acc");
  GeneratedKey key = generateApiKey(KeyMode::Live);
  c.key = key.secret;
  {
    db::Session sql(db_);
    soci::transaction tx(*sql);
    std::string email = c.id + "@ex.ca";
    *sql << "INSERT INTO accounts (id, name, email, password_hash, status, verified_phone, "
            "phone_number_limit) VALUES (:id, 'Live customer', :email, 'x', 'ACTIVE', "
            "'+14162220000', :limit)",
        soci::use(c.id), soci::use(email), soci::use(numbers + 10);
    db::postLedgerEntry(*sql, {c.id, balance_cents, "top_up", newId("topup"), "Top-up"});
    std::string key_id = newId("key"), permissions = Permissions::everything().toJson().dump();
    *sql << "INSERT INTO api_keys (id, account_id, key_hash, key_prefix, mode, permissions) "
            "VALUES (:id, :account, :hash, :prefix, 'LIVE', :permissions::jsonb)",
        soci::use(key_id), soci::use(c.id), soci::use(key.hash), soci::use(key.key_prefix),
        soci::use(permissions);
    tx.commit();
  }
  FakeCarrier carrier;
  for (int n = 0; n < numbers; ++n) {
    std::string number = "+1613" + std::to_string(3000000 + next_number_++);
    auto outcome = numbers::purchaseNumber(db_, carrier, c.id, *E164::parse(number),
                                           std::chrono::system_clock::now());
    if (outcome.kind != numbers::PurchaseOutcome::Kind::Completed)
      throw std::runtime_error("buying " + number + " failed: " + outcome.detail);
    c.numbers.push_back(number);
  }
  db::Session sql(db_);
  for (int r = 0; r < recipients; ++r) {
    std::string to = "+1514" + std::to_string(3000000 + next_recipient_++);
    std::string consent_id = newId("cns");
    *sql << "INSERT INTO consents (id, account_id, mode, channel, phone_number, consent_type, "
            "source_description) VALUES (:id, :account, 'LIVE', 'SMS', :to, 'EXPRESS', "
            "'Test customer')",
        soci::use(consent_id), soci::use(c.id), soci::use(to);
    c.recipients.push_back(to);
  }
  return c;
}

CarefulSends sendAsCarefulClient(const std::string& api_url, const LiveCustomer& customer,
                                 int count, const std::string& tag) {
  CarefulSends sends;
  for (int i = 0; i < count; ++i) {
    nlohmann::json body = {
        {"from", customer.numbers[static_cast<size_t>(i) % customer.numbers.size()]},
        {"to", customer.recipients[static_cast<size_t>(i) % customer.recipients.size()]},
        {"body", tag + " " + customer.id + " #" + std::to_string(i)}};
    HttpHeaders headers = {{"Authorization", "Bearer " + customer.key},
                           {"Content-Type", "application/json"},
                           {"Connection", "keep-alive"},
                           {"Idempotency-Key", tag + "-" + std::to_string(i)}};
    for (int attempt = 0;; ++attempt) {
      auto response = httpRequest("POST", api_url + "/v1/messages", headers, body.dump(),
                                  std::chrono::seconds(10));
      if (response.status == 201) {
        sends.accepted.push_back({nlohmann::json::parse(response.body)["id"], body["body"]});
        break;
      }
      if ((response.status != 0 && response.status < 500 && response.status != 409) ||
          attempt > 300) {
        sends.refusals.push_back(std::to_string(response.status) + " " + response.body);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  return sends;
}

}  // namespace smsgw::testing
