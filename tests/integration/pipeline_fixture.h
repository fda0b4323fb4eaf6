#pragma once
// The fixture of the operations tests: a scratch database, a PipelineStack of the real binaries
// on it (pacing and rate limits out of the way: they are not these tests' subject), a factory of
// LIVE customers, a webhook receiver, and the queries the tests read the outcome with.

#include <gtest/gtest.h>
#include <soci/soci.h>

#include <functional>
#include <map>
#include <string>
#include <thread>

#include "db/database.h"
#include "domain/ids.h"
#include "domain/webhook_signature.h"
#include "tests/support/live_customers.h"
#include "tests/support/pipeline_stack.h"
#include "tests/support/scratch_database.h"
#include "tests/support/webhook_receiver.h"

namespace smsgw::testing {

class PipelineTest : public ::testing::Test {
 protected:
  // `settings` add to the stack's defaults below.
  explicit PipelineTest(std::map<std::string, std::string> settings = {})
      : stack_(scratch_.url(), withDefaults(std::move(settings))) {}

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
  // Waits until `done` holds, for at most `seconds`.
  static bool eventually(const std::function<bool()>& done, int seconds) {
    for (int i = 0; i < seconds * 10; ++i) {
      if (done()) return true;
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
  std::string statusCounts() {
    return text(
        "SELECT string_agg(s || '=' || n, ' ') FROM (SELECT status || coalesce('/' || "
        "error_code, '') AS s, count(*) AS n FROM messages GROUP BY 1 ORDER BY 1) c");
  }

  ScratchDatabase scratch_;
  db::Database database_{scratch_.url(), 4};
  PipelineStack stack_;
  LiveCustomerFactory factory_{database_};
  WebhookReceiver receiver_;

 private:
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
