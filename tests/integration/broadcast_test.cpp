// Group broadcasts against a real database with the clock in the test's hands: a retry after
// the 24-hour window re-runs the checks and uses a new slot but never messages a member twice,
// concurrent repeats with one key message each member once, a broadcast marks lapsed implied
// consent EXPIRED, and the fan-out limit counts the members a broadcast would add.
#include "services/sending/broadcast.h"

#include <future>
#include <set>

#include "domain/errors.h"
#include "domain/permissions.h"
#include "services/accounts/accounts.h"
#include "tests/integration/numbers_fixture.h"

using namespace smsgw;
using namespace smsgw::testing;

namespace {

class BroadcastTest : public NumbersTest {
 protected:
  void SetUp() override {
    account_ = newAccount(10000);
    buy(account_, kNumber, clock_.now());
    caller_ = liveCaller(account_);
    group_ = newId("cg");
    scratch_.exec("INSERT INTO contact_groups (id, account_id, name) VALUES ('" + group_ + "', '" +
                  account_ + "', 'Group')");
  }

  // A member with a phone number and, unless `consent` is empty, that consent (EXPRESS, or
  // IMPLIED expiring at `expires_sql`).
  std::string addMember(const std::string& consent = "EXPRESS",
                        const std::string& expires_sql = "NULL") {
    std::string phone = "+1514" + std::to_string(5000000 + next_member_++);
    std::string contact = newId("ct");
    scratch_.exec("INSERT INTO contacts (id, account_id, phone_number) VALUES ('" + contact +
                  "', '" + account_ + "', '" + phone + "')");
    scratch_.exec("INSERT INTO contact_group_members (group_id, contact_id, added_at) VALUES ('" +
                  group_ + "', '" + contact + "', now() + " + std::to_string(next_member_) +
                  " * interval '1 ms')");
    if (!consent.empty()) {
      scratch_.exec(
          "INSERT INTO consents (id, account_id, mode, channel, phone_number, "
          "consent_type, source_description, relationship_type, expires_at) VALUES ('" +
          newId("cns") + "', '" + account_ + "', 'LIVE', 'SMS', '" + phone + "', '" + consent +
          "', 'form', 'purchase', " + expires_sql + ")");
    }
    return phone;
  }

  nlohmann::json broadcast(const std::string& key = "", const std::string& body = "Hello") {
    sending::SendServices services{database_, relay_, manual_clock_, policy_};
    sending::BroadcastRequest request{group_, *E164::parse(kNumber), body, false,
                                      key,    "fingerprint:" + body};
    return sending::broadcastToGroup(services, caller_, request);
  }

  std::map<std::string, nlohmann::json> byNumber(const nlohmann::json& answer) {
    std::map<std::string, nlohmann::json> out;
    for (const auto& line : answer["results"]) out[line["to"]] = line;
    return out;
  }

  static constexpr const char* kNumber = "+16135550500";
  std::string account_, group_;
  Caller caller_;
  SendPolicy policy_;
  ManualClock manual_clock_;
  int next_member_ = 0;
};

}  // namespace

TEST_F(BroadcastTest, ALaterRetryRerunsTheChecksUsesANewSlotAndNeverMessagesAMemberTwice) {
  std::vector<std::string> first_members = {addMember(), addMember(), addMember()};
  nlohmann::json first = broadcast("launch");
  ASSERT_EQ(first["sent_to"], 3);
  EXPECT_EQ(count("messages"), 3);

  // A day later: two new members (one without consent), and the account allows one broadcast
  // a day.
  std::string joined = addMember(), silent = addMember("");
  scratch_.exec("UPDATE accounts SET broadcasts_per_day = 1 WHERE id = '" + account_ + "'");
  manual_clock_.advance(std::chrono::hours(25));
  nlohmann::json later = broadcast("launch");
  auto lines = byNumber(later);
  for (const auto& member : first_members) {
    EXPECT_EQ(lines[member]["message_id"], byNumber(first)[member]["message_id"]) << member;
  }
  EXPECT_EQ(lines[joined]["status"], "queued");
  EXPECT_EQ(lines[silent]["error"], "NO_CONSENT");
  EXPECT_EQ(later["sent_to"], 4);
  EXPECT_EQ(later["failed"], 1);
  EXPECT_EQ(count("messages"), 4) << "only the new member was messaged";
  EXPECT_EQ(count("ledger_entries WHERE kind = 'sms_outbound'"), 4);
  expectBalanceMatchesLedger(account_);
  // It used the day's one slot: another broadcast waits, but its own repeat does not.
  EXPECT_EQ(refusalOf([&] { broadcast("", "Other"); }), ErrorCode::BROADCAST_LIMIT_REACHED);
  EXPECT_EQ(broadcast("launch"), later);
}

TEST_F(BroadcastTest, ConcurrentRepeatsWithOneKeyMessageEachMemberOnce) {
  for (int i = 0; i < 60; ++i) addMember();
  policy_.broadcast_batch_size = 5;
  auto attempt = [&] {
    for (int tries = 0;; ++tries) {
      try {
        return broadcast("same-key");
      } catch (const ApiError& raced) {  // both inserted the broadcast at once: retry
        if (raced.code() != ErrorCode::CONFLICT || tries > 5) throw;
      }
    }
  };
  auto one = std::async(std::launch::async, attempt);
  auto two = std::async(std::launch::async, attempt);
  nlohmann::json a = one.get(), b = two.get();
  EXPECT_EQ(a["sent_to"], 60);
  EXPECT_EQ(b["sent_to"], 60);
  EXPECT_EQ(byNumber(a), byNumber(b)) << "both report the same message for each member";
  EXPECT_EQ(count("messages"), 60);
  EXPECT_EQ(query("SELECT count(DISTINCT to_number) FROM messages"), 60);
  EXPECT_EQ(count("ledger_entries WHERE kind = 'sms_outbound'"), 60);
  EXPECT_EQ(count("broadcasts"), 1);
  expectBalanceMatchesLedger(account_);
}

TEST_F(BroadcastTest, ALapsedImpliedConsentIsAResultAndIsMarkedExpired) {
  std::string current = addMember("IMPLIED", "now() + interval '30 days'");
  std::string lapsed = addMember("IMPLIED", "now() - interval '1 day'");
  auto lines = byNumber(broadcast());
  EXPECT_EQ(lines[current]["status"], "queued");
  EXPECT_EQ(lines[lapsed]["error"], "CONSENT_EXPIRED");
  EXPECT_EQ(text("SELECT status FROM consents WHERE phone_number = '" + lapsed + "'"), "EXPIRED");
  EXPECT_EQ(text("SELECT casl_consent_type FROM messages WHERE to_number = '" + current + "'"),
            "IMPLIED");
}

TEST_F(BroadcastTest, TheFanOutLimitCountsTheMembersABroadcastWouldAdd) {
  policy_.fanout_limit = 3;
  std::vector<std::string> members = {addMember(), addMember()};
  ASSERT_EQ(broadcast("", "Same text")["sent_to"], 2);
  // Two more members would make four recipients of the text; the two reached before count once.
  addMember();
  addMember();
  manual_clock_.advance(std::chrono::hours(2));  // the recipients' hourly counts are not at issue
  EXPECT_EQ(refusalOf([&] { broadcast("", "Same text"); }), ErrorCode::FANOUT_LIMIT_REACHED);
  policy_.fanout_limit = 4;
  EXPECT_EQ(broadcast("", "Same text")["sent_to"], 4);
  EXPECT_EQ(count("messages"), 6);
}

TEST_F(BroadcastTest, ABalanceDrainedBetweenBatchesStopsTheRestAsResults) {
  for (int i = 0; i < 6; ++i) addMember();
  policy_.broadcast_batch_size = 2;
  // The checks see enough; a charge committed by another request leaves room for one batch.
  scratch_.exec(
      "CREATE FUNCTION drain() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
      "PERFORM post_ledger_entries(NEW.account_id, 4 - a.balance_cents, 'test_drain', "
      "jsonb_build_array(jsonb_build_object('reference', NEW.id, 'description', "
      "'Spent elsewhere'))) FROM accounts a WHERE a.id = NEW.account_id; "
      "RETURN NULL; END $$");
  scratch_.exec(
      "CREATE TRIGGER drain AFTER INSERT ON broadcasts FOR EACH ROW EXECUTE "
      "FUNCTION drain()");
  nlohmann::json answer = broadcast();
  EXPECT_EQ(answer["sent_to"], 2);
  EXPECT_EQ(answer["failed"], 4);
  for (size_t i = 2; i < 6; ++i) {
    EXPECT_EQ(answer["results"][i]["error"], "INSUFFICIENT_BALANCE");
    EXPECT_FALSE(answer["results"][i].contains("message_id"));
  }
  EXPECT_EQ(count("messages"), 2);
  EXPECT_EQ(balance(account_), 0);
  expectBalanceMatchesLedger(account_);
}

TEST_F(BroadcastTest, WhatTheDatabaseKnowsOfAMemberRefusesItAlone) {
  std::string landline = addMember(), busy = addMember(), fine = addMember();
  scratch_.exec("INSERT INTO number_lookups (phone_number, line_type) VALUES ('" + landline +
                "', 'landline')");
  // 30 messages to `busy` this hour: the per-recipient limit.
  scratch_.exec(
      "INSERT INTO messages (id, account_id, direction, from_number, to_number, body, "
      "status, segment_count, mode, created_at) SELECT 'msg_busy' || g, '" +
      account_ + "', 'OUTBOUND', '" + kNumber + "', '" + busy +
      "', 'x', 'DELIVERED', 1, 'LIVE', now() - interval '10 minutes' FROM "
      "generate_series(1, 30) g");
  auto lines = byNumber(broadcast());
  EXPECT_EQ(lines[landline]["error"], "NOT_A_MOBILE_NUMBER");
  EXPECT_EQ(lines[busy]["error"], "RECIPIENT_RATE_LIMITED");
  EXPECT_EQ(lines[fine]["status"], "queued");
}

TEST_F(BroadcastTest, APausedAccountIsRefusedBeforeAnyMember) {
  addMember();
  scratch_.exec(
      "UPDATE accounts SET sms_paused_until = now() + interval '1 day', "
      "sms_pause_reason = 'FAILURE_RATE' WHERE id = '" +
      account_ + "'");
  EXPECT_EQ(refusalOf([&] { broadcast(); }), ErrorCode::SENDING_PAUSED);
  EXPECT_EQ(count("messages"), 0);
  EXPECT_EQ(count("broadcasts"), 0) << "no slot used";
  // The account document shows the pause while it lasts (the dashboard's overview).
  auto paused = accounts::accountDocument(database_, account_, std::chrono::system_clock::now());
  EXPECT_EQ(paused["account"]["sending_pause_reason"], "FAILURE_RATE");
  EXPECT_TRUE(paused["account"]["sending_paused_until"].is_string());
  auto resumed = accounts::accountDocument(
      database_, account_, std::chrono::system_clock::now() + std::chrono::hours(25));
  EXPECT_TRUE(resumed["account"]["sending_pause_reason"].is_null());
  EXPECT_TRUE(resumed["account"]["sending_paused_until"].is_null());
}
