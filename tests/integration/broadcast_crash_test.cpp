// A LIVE group broadcast interrupted by kill -9 of the API, twice, while its batches are being
// written, and retried by the client with its Idempotency-Key: every member gets exactly one
// message, charged once; the carrier takes each text once; the money adds up.
#include <gtest/gtest.h>
#include <soci/soci.h>

#include <atomic>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "adapters/http_client.h"
#include "db/database.h"
#include "db/ledger.h"
#include "domain/api_key.h"
#include "domain/ids.h"
#include "domain/permissions.h"
#include "services/numbers/purchase.h"
#include "tests/support/crash_stack.h"
#include "tests/support/fake_carrier.h"
#include "tests/support/scratch_database.h"

using namespace smsgw;
using namespace smsgw::testing;

namespace {

constexpr int kMembers = 1200;
constexpr int kBatch = 40;  // 30 transactions: room for a kill between two of them
constexpr long long kPartPrice = 2;

class BroadcastCrashTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(stack_.start());
    account_ = newId("acc");
    scratch_.exec(
        "INSERT INTO accounts (id, name, email, password_hash, status, verified_phone, "
        "broadcast_max_members) VALUES ('" +
        account_ + "', 'Crash', '" + account_ + "@ex.ca', 'x', 'ACTIVE', '+14162220000', " +
        std::to_string(kMembers) + ")");
    {
      db::Session sql(database_);
      db::postLedgerEntry(*sql, {account_, 100000, "top_up", newId("topup"), "Top-up"});
    }
    GeneratedKey key = generateApiKey(KeyMode::Live);
    key_ = key.secret;
    scratch_.exec(
        "INSERT INTO api_keys (id, account_id, key_hash, key_prefix, mode, permissions) "
        "VALUES ('" +
        newId("key") + "', '" + account_ + "', '" + key.hash + "', '" + key.key_prefix +
        "', 'LIVE', '" + Permissions::everything().toJson().dump() + "'::jsonb)");
    FakeCarrier numbers_carrier;
    auto bought = numbers::purchaseNumber(database_, numbers_carrier, account_,
                                          *E164::parse(kNumber), std::chrono::system_clock::now());
    ASSERT_EQ(bought.kind, numbers::PurchaseOutcome::Kind::Completed) << bought.detail;
    // The group and its members' express consent, as the API would have stored them.
    group_ = newId("cg");
    scratch_.exec("INSERT INTO contact_groups (id, account_id, name) VALUES ('" + group_ + "', '" +
                  account_ + "', 'Everyone')");
    scratch_.exec("INSERT INTO contacts (id, account_id, phone_number) SELECT 'ct_crash' || g, '" +
                  account_ + "', '+1514' || (4000000 + g) FROM generate_series(1, " +
                  std::to_string(kMembers) + ") g");
    scratch_.exec("INSERT INTO contact_group_members (group_id, contact_id, added_at) SELECT '" +
                  group_ +
                  "', 'ct_crash' || g, now() + g * interval '1 ms' FROM "
                  "generate_series(1, " +
                  std::to_string(kMembers) + ") g");
    scratch_.exec(
        "INSERT INTO consents (id, account_id, mode, channel, phone_number, "
        "consent_type, source_description) SELECT 'cns_crash' || g, '" +
        account_ +
        "', 'LIVE', 'SMS', '+1514' || (4000000 + g), 'EXPRESS', 'Crash test' FROM "
        "generate_series(1, " +
        std::to_string(kMembers) + ") g");
  }

  long long query(const std::string& sql_text) {
    db::Session sql(database_);
    long long value = 0;
    *sql << sql_text, soci::into(value);
    return value;
  }

  // Broadcasts as a careful client: a dropped connection or a 5xx is retried with the same
  // Idempotency-Key until the API answers.
  HttpResponse broadcastUntilAnswered() {
    nlohmann::json body = {{"from", kNumber}, {"body", "Crash-proof broadcast"}};
    HttpHeaders headers = {{"Authorization", "Bearer " + key_},
                           {"Content-Type", "application/json"},
                           {"Idempotency-Key", "grand-opening"}};
    for (int attempt = 0;; ++attempt) {
      auto response =
          httpRequest("POST", stack_.apiUrl() + "/v1/contact-groups/" + group_ + "/messages",
                      headers, body.dump(), std::chrono::seconds(60));
      if ((response.status != 0 && response.status < 500) || attempt > 600) return response;
      ++retries_;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }

  static constexpr const char* kNumber = "+16133004000";
  ScratchDatabase scratch_;
  db::Database database_{scratch_.url(), 4};
  CrashStack stack_{scratch_.url(),
                    {{"BROADCAST_BATCH_SIZE", std::to_string(kBatch)},
                     {"LOCAL_PARTS_PER_MINUTE", "600000"},  // pacing is not this test's subject
                     {"SIM_RECEIPT_DELAY_MS", "100"}}};
  std::string account_, key_, group_;
  std::atomic<int> retries_{0};
};

}  // namespace

TEST_F(BroadcastCrashTest, AKilledBroadcastRetriedWithItsKeyMessagesEveryMemberOnce) {
  const long long balance_before =
      query("SELECT balance_cents FROM accounts WHERE id = '" + account_ + "'");
  std::atomic<bool> answered{false};
  HttpResponse answer;
  std::thread client([&] {
    answer = broadcastUntilAnswered();
    answered = true;
  });
  // Two kills, each once some batches are in and before the last: the API dies mid-broadcast.
  std::vector<long long> reached_at_kill;
  long long previous = 0;
  for (int kill = 0; kill < 2 && !answered; ++kill) {
    long long reached = 0;
    for (int i = 0; i < 60000 && !answered; ++i) {
      reached = query("SELECT count(*) FROM broadcast_recipients");
      if (reached > previous) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    if (answered || reached >= kMembers) break;
    stack_.api().kill9();
    reached_at_kill.push_back(query("SELECT count(*) FROM broadcast_recipients"));
    previous = reached_at_kill.back();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    stack_.api().start();
  }
  client.join();
  std::cout << "broadcast crash test: killed with";
  for (long long n : reached_at_kill) std::cout << " " << n;
  std::cout << " of " << kMembers << " members reached; " << retries_.load()
            << " retries; answered " << answer.status << std::endl;
  ASSERT_EQ(reached_at_kill.size(), 2u)
      << "the API was not killed mid-broadcast twice: " << answer.body.substr(0, 500);
  for (long long n : reached_at_kill) {
    EXPECT_GT(n, 0);
    EXPECT_LT(n, kMembers) << "killed before the last batch";
  }

  ASSERT_EQ(answer.status, 207) << answer.body;
  auto result = nlohmann::json::parse(answer.body);
  EXPECT_EQ(result["sent_to"], kMembers);
  EXPECT_EQ(result["failed"], 0);
  std::set<std::string> numbers, message_ids;
  for (const auto& line : result["results"]) {
    numbers.insert(line["to"].get<std::string>());
    message_ids.insert(line["message_id"].get<std::string>());
  }
  EXPECT_EQ(numbers.size(), static_cast<size_t>(kMembers));
  EXPECT_EQ(message_ids.size(), static_cast<size_t>(kMembers));

  // One message per member, charged once; nothing stored the answer does not show.
  EXPECT_EQ(query("SELECT count(*) FROM messages WHERE direction = 'OUTBOUND'"), kMembers);
  EXPECT_EQ(query("SELECT count(DISTINCT to_number) FROM messages"), kMembers);
  EXPECT_EQ(query("SELECT count(*) FROM broadcast_recipients"), kMembers);
  EXPECT_EQ(query("SELECT count(*) FROM broadcasts"), 1);
  EXPECT_EQ(query("SELECT count(*) FROM ledger_entries WHERE kind = 'sms_outbound'"), kMembers);
  EXPECT_EQ(query("SELECT count(*) FROM messages m WHERE NOT EXISTS (SELECT 1 FROM "
                  "ledger_entries l WHERE l.kind = 'sms_outbound' AND l.reference_id = m.id)"),
            0)
      << "each message's own charge";
  EXPECT_EQ(query("SELECT count(*) FROM events WHERE type = 'message.queued'"), kMembers);
  EXPECT_EQ(
      query("SELECT balance_cents FROM accounts WHERE id = '" + account_ + "'"),
      query("SELECT sum(amount_cents) FROM ledger_entries WHERE account_id = '" + account_ + "'"));
  EXPECT_EQ(query("SELECT balance_cents FROM accounts WHERE id = '" + account_ + "'"),
            balance_before - kMembers * kPartPrice);

  // Every message goes out once: the simulator's handsets each got one text.
  auto unsettled = [&] {
    return query("SELECT count(*) FROM messages WHERE status IN ('QUEUED', 'SENDING')");
  };
  for (int i = 0; i < 1200 && unsettled() > 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(unsettled(), 0);
  EXPECT_EQ(query("SELECT count(*) FROM messages WHERE status = 'DELIVERED'"), kMembers);
  auto texts = nlohmann::json::parse(
      httpRequest("GET", stack_.simUrl() + "/sim/messages", {}, "", std::chrono::seconds(30)).body);
  std::map<std::string, int> per_handset;
  for (const auto& text : texts["data"]) ++per_handset[text["to"].get<std::string>()];
  EXPECT_EQ(per_handset.size(), static_cast<size_t>(kMembers));
  for (const auto& [to, n] : per_handset) EXPECT_EQ(n, 1) << to;
  EXPECT_EQ(query("SELECT count(*) FROM reconciler_fixes"), 0)
      << "the pipeline recovered by itself, not the reconciler";
}
