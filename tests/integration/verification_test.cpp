// Verifications against a real database with the clock in the test's hands: expiry after 10
// minutes, the per-account hourly limit, a balance that cannot pay, and how a LIVE code travels:
// kept only as an HMAC and a sealed text, opened by the sender for the carrier, then forgotten.
#include <regex>

#include "domain/crypto.h"
#include "domain/errors.h"
#include "domain/permissions.h"
#include "services/verifications/verifications.h"
#include "tests/integration/numbers_fixture.h"
#include "workers/sender/sender_handler.h"

using namespace smsgw;
using namespace smsgw::testing;

namespace {

class VerificationTest : public NumbersTest {
 protected:
  void SetUp() override {
    account_ = newAccount(1000);
    buy(account_, kNumber, clock_.now());
    caller_ = liveCaller(account_);
  }
  verifications::VerificationServices services() {
    return {database_, relay_, manual_clock_, policy_, settings_};
  }
  nlohmann::json start(const std::string& phone, KeyMode mode = KeyMode::Live) {
    Caller caller = caller_;
    caller.mode = mode;
    return verifications::startVerification(
        services(), caller, {*E164::parse(phone), *E164::parse(kNumber), std::nullopt, 6});
  }
  // The sender's hand-off of the verification's message, as the worker runs it.
  void handOff(const std::string& message_id, const std::string& secret) {
    topics::OutboundSms sms{message_id, account_, kNumber, "LIVE"};
    workers::SenderHandler sender(context_, carrier_, carrier_hold_, {}, secret);
    sender({"sms.outbound", 0, 0, kNumber, sms.toJson().dump(), {}});
  }

  static constexpr const char* kNumber = "+16135550600";
  std::string account_;
  Caller caller_;
  SendPolicy policy_;
  verifications::VerificationSettings settings_{"integration-secret", "+15873190000"};
  ManualClock manual_clock_;
};

}  // namespace

TEST_F(VerificationTest, ACodeExpiresAfterTenMinutes) {
  nlohmann::json started = start("+16132220601", KeyMode::Test);
  std::string id = started["id"];
  Caller test = caller_;
  test.mode = KeyMode::Test;
  manual_clock_.advance(std::chrono::minutes(9));
  EXPECT_EQ(verifications::verification(database_, test, id, manual_clock_.now())["status"],
            "pending");
  manual_clock_.advance(std::chrono::minutes(1));
  EXPECT_EQ(verifications::verification(database_, test, id, manual_clock_.now())["status"],
            "expired");
  EXPECT_EQ(refusalOf([&] { verifications::checkVerification(services(), test, id, "000000"); }),
            ErrorCode::VERIFICATION_EXPIRED);
  EXPECT_EQ(text("SELECT status FROM verifications WHERE id = '" + id + "'"), "expired");
  // An expired code no longer holds the number: a new one starts afresh.
  EXPECT_EQ(start("+16132220601", KeyMode::Test)["attempts"], 0);
}

TEST_F(VerificationTest, CodesPerAccountAreLimitedPerHour) {
  policy_.verifications_per_account_hourly = 2;
  start("+16132220611", KeyMode::Test);
  start("+16132220612", KeyMode::Test);
  EXPECT_EQ(refusalOf([&] { start("+16132220613", KeyMode::Test); }), ErrorCode::RATE_LIMITED);
  EXPECT_EQ(start("+16132220613")["mode"], "LIVE") << "LIVE codes are counted apart";
  manual_clock_.advance(std::chrono::minutes(61));
  EXPECT_EQ(start("+16132220613", KeyMode::Test)["status"], "pending");
}

TEST_F(VerificationTest, ABalanceThatCannotPayStoresNothing) {
  scratch_.exec("SELECT post_ledger_entries('" + account_ +
                "', -(SELECT balance_cents - 3 FROM accounts WHERE id = '" + account_ +
                "'), 'test_drain', '[{\"reference\": \"drain\", \"description\": \"Drained\"}]')");
  EXPECT_EQ(refusalOf([&] { start("+16132220621"); }), ErrorCode::INSUFFICIENT_BALANCE);
  EXPECT_EQ(count("verifications"), 0);
  EXPECT_EQ(count("messages"), 0);
  EXPECT_EQ(balance(account_), 3);
  expectBalanceMatchesLedger(account_);
}

TEST_F(VerificationTest, TheSenderOpensTheSealedCodeForTheCarrierThenItIsGone) {
  nlohmann::json started = start("+16132220631");
  std::string id = started["id"], message_id = started["message_id"];
  std::string hash = text("SELECT code_hash FROM verifications WHERE id = '" + id + "'");
  std::string sealed = text("SELECT sealed_code FROM verifications WHERE id = '" + id + "'");
  EXPECT_EQ(count("messages WHERE id = '" + message_id + "' AND body IS NULL AND is_verification"),
            1);
  handOff(message_id, settings_.code_secret);
  ASSERT_EQ(carrier_.sent().size(), 1u);
  std::string texted = carrier_.sent()[0].text;
  std::smatch digits;
  ASSERT_TRUE(std::regex_search(texted, digits, std::regex(R"((\d{6}))"))) << texted;
  std::string code = digits[1];
  EXPECT_EQ(sealed.find(code), std::string::npos) << "the stored text is sealed";
  EXPECT_NE(hash, crypto::sha256Hex(code)) << "not a plain hash of a six-digit code";
  EXPECT_EQ(count("verifications WHERE id = '" + id + "' AND sealed_code IS NULL"), 1)
      << "forgotten once the carrier has it";
  EXPECT_EQ(text("SELECT status FROM messages WHERE id = '" + message_id + "'"), "SENDING");
  EXPECT_EQ(query("SELECT cost_cents FROM messages WHERE id = '" + message_id + "'"), 5)
      << "a flat price, whatever the parts";
  EXPECT_EQ(verifications::checkVerification(services(), caller_, id, code)["status"], "verified");
  expectBalanceMatchesLedger(account_);
}

TEST_F(VerificationTest, ACodeTheSenderCannotOpenIsNeverSentAndIsRefunded) {
  long long before = balance(account_);
  nlohmann::json started = start("+16132220641");
  handOff(started["message_id"], "another-secret");
  EXPECT_TRUE(carrier_.sent().empty()) << "never an empty or wrong text";
  EXPECT_EQ(text("SELECT error_code FROM messages WHERE id = '" +
                 started["message_id"].get<std::string>() + "'"),
            "STALE_QUEUED");
  EXPECT_EQ(balance(account_), before);
  expectBalanceMatchesLedger(account_);
}
