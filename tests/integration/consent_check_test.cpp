// The consent check against a real database, at chosen times: opt-outs first, express over
// implied, and an implied consent found past its expiry written EXPIRED by the check itself.
#include "services/compliance/consent_check.h"

#include <gtest/gtest.h>
#include <soci/soci.h>

#include "db/database.h"
#include "domain/ids.h"
#include "services/compliance/records.h"
#include "tests/support/scratch_database.h"

using namespace smsgw;
using namespace smsgw::testing;

namespace {

const std::string kSubscriber = "+15145550142";

TimePoint at(const char* iso) {
  return *parseIso(iso);
}

class ConsentCheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_.exec("INSERT INTO accounts (id, name, email, password_hash) VALUES ('" + account_ +
                  "', 'T', '" + account_ + "@ex.ca', 'x')");
  }
  compliance::ConsentDecision check(TimePoint now, const std::optional<std::string>& from = {},
                                    const std::string& mode = "LIVE") {
    db::Session sql(database_);
    soci::transaction tx(*sql);
    auto decision = compliance::checkConsent(*sql, account_, mode, kSubscriber, from, now);
    tx.commit();
    return decision;
  }
  void record(const char* type, std::optional<TimePoint> expires_at = {}) {
    db::Session sql(database_);
    compliance::ConsentDraft draft;
    draft.phone_number = kSubscriber;
    draft.consent_type = type;
    draft.expires_at = expires_at;
    compliance::recordConsent(*sql, account_, "LIVE", draft);
  }
  std::string statuses() {
    db::Session sql(database_);
    std::string out;
    soci::indicator ind;
    *sql << "SELECT string_agg(status, ',' ORDER BY status) FROM consents", soci::into(out, ind);
    return ind == soci::i_ok ? out : "";
  }

  ScratchDatabase scratch_;
  db::Database database_{scratch_.url(), 2};
  std::string account_ = newId("acc");
};

}  // namespace

TEST_F(ConsentCheckTest, ImpliedConsentFoundExpiredIsWrittenExpired) {
  record("IMPLIED", at("2027-06-01T00:00:00Z"));
  auto before = check(at("2027-05-31T23:59:59Z"));
  EXPECT_TRUE(before.allowed);
  EXPECT_EQ(before.consent_type, "IMPLIED");
  EXPECT_EQ(statuses(), "ACTIVE");
  auto after = check(at("2027-06-01T00:00:00Z"));
  EXPECT_FALSE(after.allowed);
  EXPECT_EQ(after.reason, "CONSENT_EXPIRED");
  EXPECT_EQ(after.refusal(), ErrorCode::CONSENT_EXPIRED);
  EXPECT_EQ(statuses(), "EXPIRED") << "the check wrote it";
  EXPECT_EQ(check(at("2027-01-01T00:00:00Z")).reason, "CONSENT_EXPIRED")
      << "an expired consent does not come back";
}

TEST_F(ConsentCheckTest, ExpressConsentNeverExpiresAndIsPreferred) {
  record("IMPLIED", at("2027-06-01T00:00:00Z"));
  record("EXPRESS");
  auto decision = check(at("2040-01-01T00:00:00Z"));
  EXPECT_TRUE(decision.allowed);
  EXPECT_EQ(decision.consent_type, "EXPRESS");
  EXPECT_EQ(statuses(), "ACTIVE,EXPIRED");
}

TEST_F(ConsentCheckTest, RevokedConsentIsNoConsent) {
  record("EXPRESS");
  db::Session sql(database_);
  EXPECT_EQ(compliance::revokeConsents(*sql, account_, "LIVE", kSubscriber, "test",
                                       at("2026-12-01T00:00:00Z")),
            1);
  auto decision = check(at("2027-01-01T00:00:00Z"));
  EXPECT_EQ(decision.reason, "NO_CONSENT");
  EXPECT_EQ(decision.refusal(), ErrorCode::NO_CONSENT);
}

TEST_F(ConsentCheckTest, AnOptOutRefusesTheNumberItWasGivenForUntilReinstated) {
  record("EXPRESS");
  db::Session sql(database_);
  compliance::OptOutDraft stop{account_, "LIVE", kSubscriber, "+14165550100", "STOP", std::nullopt};
  TimePoint now = at("2027-01-01T00:00:00Z");
  EXPECT_TRUE(compliance::recordOptOut(*sql, stop, now));
  EXPECT_FALSE(compliance::recordOptOut(*sql, stop, now)) << "one opt-out in force";
  EXPECT_EQ(check(now, "+14165550100").refusal(), ErrorCode::OPT_OUT_BLOCKED);
  EXPECT_TRUE(check(now, "+14165550199").allowed) << "another sending number";
  EXPECT_EQ(check(now).reason, "OPT_OUT") << "without a sending number, any opt-out refuses";
  EXPECT_FALSE(check(now, "+14165550100", "TEST").allowed) << "LIVE consent is not TEST consent";

  compliance::OptOutDraft start{account_,       "LIVE",  kSubscriber,
                                "+14165550100", "START", std::nullopt};
  EXPECT_TRUE(compliance::reinstateOptOut(*sql, start, now));
  EXPECT_FALSE(compliance::reinstateOptOut(*sql, start, now));
  EXPECT_TRUE(check(now, "+14165550100").allowed);
  EXPECT_TRUE(compliance::recordOptOut(*sql, stop, now)) << "a later STOP records a new opt-out";
}
