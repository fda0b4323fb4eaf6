// The lock on wrong passwords, with the time in the test's hands (issue 49, item 2): a stranger's
// wrong passwords lock the email they were tried for, never the owner's proven browser, session
// or an emailed unlock link; each count locks only itself, for 30 s doubling to 15 minutes; and
// the links that prove the owner serve once, for a while, at most one every five minutes.
#include <gtest/gtest.h>

#include <functional>
#include <regex>

#include "db/database.h"
#include "domain/api_key.h"
#include "domain/crypto.h"
#include "domain/errors.h"
#include "domain/ids.h"
#include "services/accounts/account_security.h"
#include "services/accounts/dashboard_sessions.h"
#include "services/accounts/key_callers.h"
#include "services/accounts/password_guard.h"
#include "services/accounts/sign_in_retention.h"
#include "services/accounts/trusted_browsers.h"
#include "tests/support/recording_mailer.h"
#include "tests/support/scratch_database.h"

using namespace smsgw;
using namespace smsgw::accounts;
using namespace smsgw::testing;
using namespace std::chrono_literals;

namespace {

constexpr const char* kPassword = "a long passphrase";

class PasswordLock : public ::testing::Test {
 protected:
  void SetUp() override {
    scratch_.exec("INSERT INTO accounts (id, name, email, password_hash, status) VALUES ('" +
                  account_ + "', 'T', '" + email_ + "', '" + crypto::hashPassword(kPassword) +
                  "', 'ACTIVE')");
  }

  PasswordCheck attempt(const std::string& password, TimePoint at,
                        std::optional<std::string> browser = std::nullopt) {
    return checkOwnerPassword(database_, {email_, password, std::move(browser)}, at);
  }
  // Wrong passwords from a stranger's browser until the email's count locks.
  void lockTheEmail(TimePoint at) {
    for (int i = 0; i < 5; ++i)
      ASSERT_EQ(attempt("a wrong guess", at).outcome, PasswordCheck::Outcome::Wrong) << i;
    ASSERT_EQ(attempt("a wrong guess", at).outcome, PasswordCheck::Outcome::Locked);
  }
  OpenedSession signedIn(TimePoint at, std::optional<std::string> browser = std::nullopt) {
    return signIn(database_, {email_, kPassword, std::move(browser), "127.0.0.1", "test"}, 1h, at);
  }
  Caller callerOf(const std::string& secret, TimePoint at) {
    return lookUpCaller(database_, hashApiKey(secret), at);
  }
  // The token of the newest link mailed for `page` (reset, unlock, email).
  std::string tokenMailed(const std::string& page) {
    std::regex link("#/" + page + "/([A-Za-z0-9]+)");
    auto sent = mailer_.sent();
    for (auto it = sent.rbegin(); it != sent.rend(); ++it) {
      std::smatch found;
      if (std::regex_search(it->body, found, link)) return found[1];
    }
    ADD_FAILURE() << "no " << page << " link was mailed";
    return "";
  }
  ErrorCode refusalOf(const std::function<void()>& action) {
    try {
      action();
    } catch (const ApiError& error) {
      return error.code();
    }
    return ErrorCode::INTERNAL_ERROR;
  }

  ScratchDatabase scratch_;
  db::Database database_{scratch_.url(), 2};
  std::string account_ = newId("acc"), email_ = account_ + "@example.ca";
  RecordingMailer mailer_;
  OwnerMail mail_{mailer_, "https://gateway.example"};
  TimePoint t0_ = *parseIso("2026-11-28T09:00:00Z");
};

}  // namespace

TEST_F(PasswordLock, AStrangersWrongPasswordsNeverLockTheOwnersProvenBrowser) {
  std::string browser = signedIn(t0_).browser_token;  // the owner signed in here once
  lockTheEmail(t0_ + 1s);
  PasswordCheck locked = attempt(kPassword, t0_ + 2s);
  EXPECT_EQ(locked.outcome, PasswordCheck::Outcome::Locked) << "the right password waits too";
  EXPECT_EQ(locked.scope, LockScope::Email);
  EXPECT_EQ(locked.failures, 5) << "the sixth try found the lock and was not counted";
  nlohmann::json details = passwordLocked(locked).details();
  EXPECT_EQ(details["scope"], "email");
  EXPECT_EQ(details["unlock"], "email_link");
  EXPECT_EQ(details["failures"], 5);

  PasswordCheck owner = attempt(kPassword, t0_ + 2s, browser);
  EXPECT_EQ(owner.outcome, PasswordCheck::Outcome::Matches);
  EXPECT_EQ(owner.account_id, account_);
  EXPECT_NO_THROW(signedIn(t0_ + 3s, browser)) << "the owner signs in from the proven browser";
  EXPECT_EQ(attempt(kPassword, t0_ + 3s).outcome, PasswordCheck::Outcome::Locked)
      << "and the stranger's lock stands";
  EXPECT_EQ(attempt(kPassword, t0_ + 3s, "a made-up token").outcome, PasswordCheck::Outcome::Locked)
      << "a token that is no proven browser is no proof";
}

TEST_F(PasswordLock, AProvenBrowsersOwnWrongPasswordsLockOnlyIt) {
  std::string browser = signedIn(t0_).browser_token;
  for (int i = 0; i < 5; ++i) attempt("a wrong guess", t0_ + 1s, browser);
  PasswordCheck locked = attempt(kPassword, t0_ + 1s, browser);
  EXPECT_EQ(locked.outcome, PasswordCheck::Outcome::Locked);
  EXPECT_EQ(locked.scope, LockScope::Browser);
  EXPECT_FALSE(passwordLocked(locked).details().contains("unlock"));
  EXPECT_EQ(attempt(kPassword, t0_ + 1s).outcome, PasswordCheck::Outcome::Matches)
      << "the email's own count is untouched";
}

TEST_F(PasswordLock, ALockLastsThirtySecondsDoublingToFifteenMinutesAndTheRightPasswordClearsIt) {
  lockTheEmail(t0_);  // the sixth try found the lock: 30 s from the fifth failure
  EXPECT_EQ(attempt(kPassword, t0_ + 29s).retry_after, 1s);
  TimePoint at = t0_ + 30s;
  std::vector<long long> waits;
  for (int i = 0; i < 7; ++i) {
    ASSERT_EQ(attempt("a wrong guess", at).outcome, PasswordCheck::Outcome::Wrong) << i;
    PasswordCheck locked = attempt(kPassword, at);
    ASSERT_EQ(locked.outcome, PasswordCheck::Outcome::Locked);
    waits.push_back(locked.retry_after.count());
    at += locked.retry_after;
  }
  EXPECT_EQ(waits, (std::vector<long long>{60, 120, 240, 480, 900, 900, 900}));
  EXPECT_EQ(attempt(kPassword, at).outcome, PasswordCheck::Outcome::Matches);
  EXPECT_EQ(attempt("a wrong guess", at).outcome, PasswordCheck::Outcome::Wrong)
      << "the count started again: five free tries";
}

TEST_F(PasswordLock, AnUnlockLinkProvesANewBrowserPastTheLockOnceAndForAnHour) {
  lockTheEmail(t0_);
  requestUnlock(database_, mail_, email_, t0_ + 1s);
  requestUnlock(database_, mail_, email_, t0_ + 4min);
  requestUnlock(database_, mail_, "nobody@example.ca", t0_ + 4min);
  ASSERT_EQ(mailer_.sent().size(), 1u) << "one link in five minutes, none for an unknown email";
  EXPECT_EQ(mailer_.sent()[0].to, email_);
  std::string token = tokenMailed("unlock");
  EXPECT_NE(mailer_.sent()[0].body.find("https://gateway.example/dashboard/#/unlock/" + token),
            std::string::npos);

  std::string browser = confirmUnlock(database_, token, t0_ + 5min);
  EXPECT_EQ(attempt(kPassword, t0_ + 5min, browser).outcome, PasswordCheck::Outcome::Matches);
  EXPECT_EQ(refusalOf([&] { confirmUnlock(database_, token, t0_ + 6min); }),
            ErrorCode::LINK_EXPIRED)
      << "a link serves once";

  requestUnlock(database_, mail_, email_, t0_ + 6min);
  ASSERT_EQ(mailer_.sent().size(), 2u) << "five minutes on, another may be sent";
  std::string late = tokenMailed("unlock");
  EXPECT_EQ(refusalOf([&] { confirmUnlock(database_, late, t0_ + 6min + 61min); }),
            ErrorCode::LINK_EXPIRED)
      << "an unlock link lasts an hour";
}

TEST_F(PasswordLock, StepUpsAreCountedPerSessionAndForAllTheAccountsKeysTogether) {
  for (const char* mode : {"LIVE", "TEST"}) {
    scratch_.exec(
        "INSERT INTO api_keys (id, account_id, key_hash, key_prefix, mode, permissions) "
        "VALUES ('key_" +
        std::string(mode) + account_ + "', '" + account_ + "', '" +
        hashApiKey(std::string("mk_") + mode + account_) + "', 'mk', '" + mode + "', '{}')");
  }
  Caller stolen = callerOf(std::string("mk_LIVE") + account_, t0_);
  Caller other_key = callerOf(std::string("mk_TEST") + account_, t0_);
  for (int i = 0; i < 5; ++i) EXPECT_FALSE(isAccountPassword(database_, stolen, "guess", t0_));
  EXPECT_EQ(refusalOf([&] { isAccountPassword(database_, stolen, kPassword, t0_); }),
            ErrorCode::RATE_LIMITED);
  EXPECT_EQ(refusalOf([&] { isAccountPassword(database_, other_key, kPassword, t0_); }),
            ErrorCode::RATE_LIMITED)
      << "keys share one count: a thief cannot mint keys for more guesses";

  OpenedSession session = signedIn(t0_);
  Caller owner = callerOf(session.secrets.live, t0_);
  EXPECT_TRUE(isAccountPassword(database_, owner, kPassword, t0_))
      << "the owner's session has a count of its own";
  EXPECT_EQ(attempt(kPassword, t0_).outcome, PasswordCheck::Outcome::Matches)
      << "and the keys' count never locks sign-in";
  EXPECT_EQ(refusalOf([&] { requireSessionStepUp(database_, owner, std::nullopt, t0_); }),
            ErrorCode::STEP_UP_REQUIRED);
  EXPECT_NO_THROW(requireSessionStepUp(database_, stolen, std::nullopt, t0_))
      << "a key that is no session's needs no step-up for what it may do";
}

TEST_F(PasswordLock, APasswordResetLinkServesOnceForHalfAnHourAndEndsEverySession) {
  OpenedSession before = signedIn(t0_);
  lockTheEmail(t0_ + 1s);
  requestPasswordReset(database_, mail_, email_, t0_ + 2s);
  std::string token = tokenMailed("reset");
  std::string browser =
      completePasswordReset(database_, mail_, token, "a brand new passphrase", t0_ + 3s);
  EXPECT_EQ(refusalOf([&] { callerOf(before.secrets.live, t0_ + 4s); }),
            ErrorCode::API_KEY_REVOKED);
  EXPECT_EQ(attempt("a brand new passphrase", t0_ + 4s, before.browser_token).outcome,
            PasswordCheck::Outcome::Locked)
      << "browsers proven before the reset are forgotten; the stranger's lock stands";
  EXPECT_EQ(attempt("a brand new passphrase", t0_ + 4s, browser).outcome,
            PasswordCheck::Outcome::Matches)
      << "the browser that followed the link is proven";
  EXPECT_EQ(refusalOf([&] {
              completePasswordReset(database_, mail_, token, "another passphrase", t0_ + 5s);
            }),
            ErrorCode::LINK_EXPIRED);
  EXPECT_EQ(mailer_.countAbout("Your password changed"), 1u);

  requestPasswordReset(database_, mail_, email_, t0_ + 6min);
  std::string late = tokenMailed("reset");
  EXPECT_EQ(refusalOf([&] {
              completePasswordReset(database_, mail_, late, "another passphrase", t0_ + 37min);
            }),
            ErrorCode::LINK_EXPIRED)
      << "a reset link lasts 30 minutes";
}

TEST_F(PasswordLock, SpentLinksSentEmailsAndLapsedBrowsersAreDeletedAWeekOn) {
  std::string browser = signedIn(t0_).browser_token;    // proven at t0, trusted 180 days
  requestPasswordReset(database_, mail_, email_, t0_);  // a link and its email, sent at t0
  ASSERT_EQ(pruneSignInLeftovers(database_, t0_ + 7 * 24h), 0) << "nothing is a week past yet";
  EXPECT_EQ(pruneSignInLeftovers(database_, t0_ + 30min + 7 * 24h + 1s), 2)
      << "the link (30 minutes, then a week) and the sent email";
  EXPECT_EQ(attempt(kPassword, t0_ + 8 * 24h, browser).scope, LockScope::Browser)
      << "a browser still trusted stays";
  EXPECT_EQ(pruneSignInLeftovers(database_, t0_ + kBrowserTrust + 7 * 24h + 1s), 1);
}
