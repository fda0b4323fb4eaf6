// Worker handlers against a real database: replaying a record changes nothing.
#include <gtest/gtest.h>
#include <soci/soci.h>

#include "db/database.h"
#include "domain/ids.h"
#include "tests/support/kafka_reader.h"
#include "tests/support/scratch_database.h"
#include "topics/records.h"
#include "workers/receipt/receipt_handler.h"
#include "workers/sender/sender_handler.h"

using namespace smsgw;
using namespace smsgw::testing;

namespace {

class NoCarrier final : public CarrierClient {
 public:
  CarrierSendResult sendMessage(const std::string&, const std::string&,
                                const std::string&) override {
    ADD_FAILURE() << "TEST messages must never reach the carrier";
    return {};
  }
  LookupResult lookupNumber(const std::string&) override { return {}; }
  NumberSearchResult searchNumbers(const std::string&, int) override { return {}; }
  NumberOperation orderNumber(const std::string&, const std::string&) override { return {}; }
  NumberOperation orderStatus(const std::string&) override { return {}; }
  NumberOperation releaseNumber(const std::string&, const std::string&) override { return {}; }
  NumberHolding numberHolding(const std::string&) override { return NumberHolding::Unknown; }
};

class WorkerHandlersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    account_ = newId("acc");
    message_ = newId("msg");
    scratch_.exec("INSERT INTO accounts (id, name, email, password_hash) VALUES ('" + account_ +
                  "', 'T', '" + account_ +
                  "@ex.ca', 'x');"
                  "INSERT INTO messages (id, account_id, direction, from_number, to_number, body, "
                  "status, segment_count, "
                  "mode, cost_cents) VALUES ('" +
                  message_ + "', '" + account_ +
                  "', 'OUTBOUND', '+14165550100', '+14165550123', 'hi', 'QUEUED', 1, 'TEST', 2)");
  }

  int count(const std::string& query) {
    db::Session sql(database_);
    int n = 0;
    *sql << query, soci::into(n);
    return n;
  }

  topics::Record outboundRecord() {
    return {"sms.outbound",
            0,
            0,
            "+14165550100",
            topics::OutboundSms{message_, account_, "+14165550100", "TEST"}.toJson().dump(),
            {}};
  }

  ScratchDatabase scratch_;
  db::Database database_{scratch_.url(), 2};
  topics::Producer producer_{brokers(), "handler-test"};
  topics::OutboxRelay relay_{database_, producer_};
  SystemClock clock_;
  workers::WorkerContext context_{database_, producer_, relay_, clock_};
  std::string account_, message_;
};

}  // namespace

TEST_F(WorkerHandlersTest, SenderHandlesAReplayedRecordOnce) {
  NoCarrier carrier;
  CarrierHold hold;
  workers::SenderHandler sender(context_, carrier, hold);
  EXPECT_TRUE(sender(outboundRecord()).applied);
  EXPECT_FALSE(sender(outboundRecord()).applied) << "a replay reports it changed nothing";
  EXPECT_EQ(count("SELECT count(*) FROM events WHERE type = 'message.sent'"), 1);
  EXPECT_EQ(count("SELECT count(*) FROM outbox WHERE topic = 'carrier.receipts'"), 1);
  EXPECT_EQ(count("SELECT count(*) FROM messages WHERE status = 'SENDING'"), 1);
}

TEST_F(WorkerHandlersTest, ReceiptHandlesAReplayedRecordOnce) {
  NoCarrier carrier;
  CarrierHold hold;
  workers::SenderHandler sender(context_, carrier, hold);
  sender(outboundRecord());
  topics::Record receipt{"carrier.receipts",
                         0,
                         0,
                         "sim_" + message_,
                         topics::CarrierReceipt{"sim_" + message_, "delivered"}.toJson().dump(),
                         {}};
  workers::ReceiptHandler handler(context_);
  EXPECT_TRUE(handler(receipt).applied);
  EXPECT_FALSE(handler(receipt).applied) << "a replay reports it changed nothing";
  EXPECT_EQ(count("SELECT count(*) FROM events WHERE type = 'message.delivered'"), 1);
  EXPECT_EQ(
      count(
          "SELECT count(*) FROM messages WHERE status = 'DELIVERED' AND delivered_at IS NOT NULL"),
      1);
}

TEST_F(WorkerHandlersTest, MalformedRecordsArePermanentErrors) {
  NoCarrier carrier;
  CarrierHold hold;
  workers::SenderHandler sender(context_, carrier, hold);
  topics::Record bad{"sms.outbound", 0, 0, "k", R"({"v":2,"message_id":"x"})", {}};
  EXPECT_THROW(sender(bad), topics::PermanentError);
  topics::Record garbage{"sms.outbound", 0, 0, "k", "nope", {}};
  EXPECT_THROW(sender(garbage), topics::PermanentError);
  workers::ReceiptHandler receipts(context_);
  topics::Record unknown{"carrier.receipts",
                         0,
                         0,
                         "k",
                         R"({"v":1,"carrier_message_id":"c","status":"teleported"})",
                         {}};
  EXPECT_THROW(receipts(unknown), topics::PermanentError);
}
