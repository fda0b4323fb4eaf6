#pragma once
// The fixture of the operations tests: a scratch database, a PipelineStack of the real binaries
// on it (pacing and rate limits out of the way: they are not these tests' subject), a factory of
// LIVE customers, a webhook receiver, and the queries the tests read the outcome with.

#include <gtest/gtest.h>
#include <soci/soci.h>

#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>

#include "adapters/http_client.h"
#include "db/database.h"
#include "db/migrator.h"
#include "domain/ids.h"
#include "domain/webhook_signature.h"
#include "tests/support/live_customers.h"
#include "tests/support/local_cluster.h"
#include "tests/support/pipeline_stack.h"
#include "tests/support/reconciler_fixes.h"
#include "tests/support/scratch_database.h"
#include "tests/support/webhook_receiver.h"

namespace smsgw::testing {

class PipelineTest : public ::testing::Test {
 protected:
  // `settings` add to the stack's defaults below. With `own_cluster`, the database lives in a
  // PostgreSQL cluster of the test's own (cluster_), which it may kill, restart or freeze.
  explicit PipelineTest(std::map<std::string, std::string> settings = {}, int brokers = 1,
                        bool own_cluster = false)
      : cluster_(own_cluster ? std::make_unique<LocalCluster>() : nullptr),
        url_(cluster_ ? migrated(cluster_->createDatabase("smsgw")) : scratch_.url()),
        stack_(url_, withDefaults(std::move(settings)), brokers) {}

  void SetUp() override { ASSERT_TRUE(stack_.start()); }

  long long query(const std::string& text) {
    db::Session sql(database_);
    long long value = 0;
    *sql << text, soci::into(value);
    return value;
  }
  std::string text(const std::string& query_text) {
    db::Session sql(database_);
    std::string value;
    soci::indicator ind = soci::i_null;
    *sql << query_text, soci::into(value, ind);
    return ind == soci::i_ok ? value : "";
  }
  // Waits until `done` holds, for at most `seconds`. A check that throws (the database away
  // for a moment: a fault test) has not held yet; the last one's exception goes to the test.
  static bool eventually(const std::function<bool()>& done, int seconds) {
    for (int i = 0; i < seconds * 10; ++i) {
      try {
        if (done()) return true;
      } catch (const std::exception&) {
        // asked again in 100 ms
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return done();
  }
  // Sends as a careful client (live_customers.h); every send must be accepted.
  std::vector<AcceptedSend> send(const LiveCustomer& customer, int count, const std::string& tag) {
    auto sends = sendAsCarefulClient(stack_.apiUrl(), customer, count, tag);
    EXPECT_TRUE(sends.refusals.empty())
        << sends.refusals.size() << " refused, the first " << sends.refusals.front();
    return sends.accepted;
  }
  // A webhook of the customer's for `events` (a JSON array), pointing at the receiver.
  void subscribe(const LiveCustomer& customer, const std::string& events) {
    db::Session sql(database_);
    std::string id = newId("wh"), url = receiver_.url(), secret = newWebhookSecret();
    *sql << "INSERT INTO webhooks (id, account_id, url, events, signing_secret) VALUES (:id, :a, "
            ":url, :events::jsonb, :secret)",
        soci::use(id), soci::use(customer.id), soci::use(url), soci::use(events), soci::use(secret);
  }
  // Subscribed events that have not reached their webhook yet.
  long long eventsNotDelivered() {
    return query(
        "SELECT count(*) FROM events e JOIN webhooks w ON w.account_id = e.account_id AND "
        "w.events ? e.type WHERE NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE "
        "d.event_id = e.id AND d.webhook_id = w.id AND d.success)");
  }
  // What the pipeline promises after any fault, read from the database, the carrier simulator
  // and the webhook receiver.
  struct Outcome {
    long long outbound = 0;
    long long delivered = 0;       // outbound messages DELIVERED
    long long stale = 0;           // FAILED STALE_QUEUED: a hand-off a killed sender left
    long long failed_charged = 0;  // FAILED messages that kept a charge
    long long carrier_texts = 0;
    long long texted_twice = 0;         // bodies the carrier got more than once
    long long off_ledger = 0;           // customers whose balance is not their ledger's sum
    long long events = 0;               // subscribed events
    long long deliveries = 0;           // webhook requests received
    long long distinct_deliveries = 0;  // distinct webhook-id headers among them
  };
  Outcome outcome(const std::vector<LiveCustomer>& customers) {
    Outcome o;
    o.outbound = query("SELECT count(*) FROM messages WHERE direction = 'OUTBOUND'");
    o.delivered = query(
        "SELECT count(*) FROM messages WHERE direction = 'OUTBOUND' AND status = 'DELIVERED'");
    o.stale = query("SELECT count(*) FROM messages WHERE error_code = 'STALE_QUEUED'");
    o.failed_charged =
        query("SELECT count(*) FROM messages WHERE status = 'FAILED' AND cost_cents <> 0");
    auto texts = nlohmann::json::parse(
        httpRequest("GET", stack_.simUrl() + "/sim/messages", {}, "", std::chrono::seconds(30))
            .body);
    std::map<std::string, int> copies;
    for (const auto& sms : texts["data"]) ++copies[sms["text"].get<std::string>()];
    o.carrier_texts = static_cast<long long>(texts["data"].size());
    for (const auto& [body, n] : copies) o.texted_twice += n > 1 ? 1 : 0;
    for (const auto& customer : customers) {
      bool balanced =
          query("SELECT balance_cents FROM accounts WHERE id = '" + customer.id + "'") ==
          query("SELECT coalesce(sum(amount_cents), 0) FROM ledger_entries WHERE account_id = '" +
                customer.id + "'");
      o.off_ledger += balanced ? 0 : 1;
    }
    o.events = query(
        "SELECT count(*) FROM events e JOIN webhooks w ON w.account_id = e.account_id AND "
        "w.events ? e.type");
    auto deliveries = receiver_.waitFor(0, std::chrono::seconds(1));
    std::set<std::string> ids;
    for (const auto& request : deliveries) ids.insert(request.headers.at("webhook-id"));
    o.deliveries = static_cast<long long>(deliveries.size());
    o.distinct_deliveries = static_cast<long long>(ids.size());
    return o;
  }
  // What the reconciler repaired (sends, receipts, inbound texts, events).
  std::string reconcilerFixes() { return text(kReconcilerFixesByKind); }
  std::string statusCounts() {
    return text(
        "SELECT string_agg(s || '=' || n, ' ') FROM (SELECT status || coalesce('/' || "
        "error_code, '') AS s, count(*) AS n FROM messages GROUP BY 1 ORDER BY 1) c");
  }

  std::unique_ptr<LocalCluster> cluster_;
  ScratchDatabase scratch_;
  std::string url_;  // the database the stack uses: the scratch one, or cluster_'s
  db::Database database_{url_, 4};
  PipelineStack stack_;
  LiveCustomerFactory factory_{database_};
  WebhookReceiver receiver_;

 private:
  static std::string migrated(const std::string& url) {
    db::migrate(url, SMSGW_MIGRATIONS_DIR, SMSGW_FUNCTIONS_DIR, SMSGW_GRANTS_FILE);
    return url;
  }
  static std::map<std::string, std::string> withDefaults(std::map<std::string, std::string> given) {
    given.merge(std::map<std::string, std::string>{{"API_RATE_LIMIT_PER_SECOND", "100000"},
                                                   {"LOCAL_PARTS_PER_MINUTE", "600000"},
                                                   {"RECIPIENT_HOURLY_LIMIT", "100000"},
                                                   {"SIM_RECEIPT_DELAY_MS", "100"},
                                                   {"WEBHOOK_RETRY_POLL_MS", "100"}});
    return given;
  }
};

}  // namespace smsgw::testing
