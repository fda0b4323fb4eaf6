#include "services/accounts/password_guard.h"

#include <soci/soci.h>

#include "domain/crypto.h"
#include "domain/errors.h"
#include "domain/password_backoff.h"
#include "services/accounts/trusted_browsers.h"

namespace smsgw::accounts {
namespace {

const std::string& standInHash() {
  static const std::string hash = crypto::hashPassword("no account has this password");
  return hash;
}

// The count a try answers to, as password_failures names it.
struct Subject {
  std::string name;
  LockScope scope = LockScope::Email;
};

// The subject of an email: its SHA-256 as the account lookup compares it (lower-cased).
Subject emailSubject(soci::session& sql, const std::string& email) {
  Subject subject;
  sql << "SELECT encode(sha256(convert_to(lower(:email), 'UTF8')), 'hex')", soci::use(email),
      soci::into(subject.name);
  return subject;
}

struct Standing {
  int failures = 0;
  long long blocked_seconds = 0;  // still to wait; 0 when the password may be tried
};

// Holds the subject for the transaction (parallel tries wait) and reads its count.
Standing standingOf(soci::session& sql, const Subject& subject, const std::string& at) {
  std::string lock_key = "password:" + subject.name;
  sql << "SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))", soci::use(lock_key);
  Standing standing;
  long long failures = 0;
  int memory_hours = static_cast<int>(kPasswordFailureMemory.count());
  sql << "SELECT CASE WHEN last_failed_at < :now::timestamptz - make_interval(hours => :memory) "
         "THEN 0 ELSE failures END, greatest(0, ceil(extract(epoch FROM coalesce(blocked_until, "
         ":now2::timestamptz) - :now3::timestamptz)))::bigint FROM password_failures "
         "WHERE subject = :subject",
      soci::use(at), soci::use(memory_hours), soci::use(at), soci::use(at), soci::use(subject.name),
      soci::into(failures), soci::into(standing.blocked_seconds);
  if (!sql.got_data()) return {};
  standing.failures = static_cast<int>(failures);
  return standing;
}

void countFailure(soci::session& sql, const Subject& subject, int failures, const std::string& at) {
  long long block = passwordBlockAfter(failures).count();
  sql << "INSERT INTO password_failures (subject, failures, last_failed_at, blocked_until) "
         "VALUES (:subject, :failures, :now::timestamptz, CASE WHEN :block > 0 THEN "
         ":now2::timestamptz + make_interval(secs => :block2) END) ON CONFLICT (subject) DO "
         "UPDATE SET failures = excluded.failures, last_failed_at = excluded.last_failed_at, "
         "blocked_until = excluded.blocked_until",
      soci::use(subject.name), soci::use(failures), soci::use(at), soci::use(block), soci::use(at),
      soci::use(block);
}

void clearFailures(soci::session& sql, const Subject& subject) {
  sql << "DELETE FROM password_failures WHERE subject = :subject", soci::use(subject.name);
}

// The password checked against `hash` under the subject's count, in the caller's transaction.
PasswordCheck checkUnder(soci::session& sql, const Subject& subject, const std::string& hash,
                         const std::string& password, TimePoint now) {
  std::string at = formatIso(now);
  Standing standing = standingOf(sql, subject, at);
  PasswordCheck check;
  check.scope = subject.scope;
  if (standing.blocked_seconds > 0) {
    check.outcome = PasswordCheck::Outcome::Locked;
    check.failures = standing.failures;
    check.retry_after = std::chrono::seconds(standing.blocked_seconds);
    return check;
  }
  if (crypto::verifyPassword(password, hash)) {
    clearFailures(sql, subject);
    check.outcome = PasswordCheck::Outcome::Matches;
    return check;
  }
  countFailure(sql, subject, standing.failures + 1, at);
  check.outcome = PasswordCheck::Outcome::Wrong;
  return check;
}

}  // namespace

std::string_view toString(LockScope scope) {
  switch (scope) {
    case LockScope::Email:
      return "email";
    case LockScope::Browser:
      return "browser";
    case LockScope::Session:
      return "session";
    case LockScope::Keys:
      return "keys";
  }
  return "email";
}

PasswordCheck checkOwnerPassword(db::Database& db, const PasswordAttempt& attempt, TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  std::string account_id, hash, status;
  *sql << "SELECT id, password_hash, status FROM accounts WHERE lower(email) = lower(:email)",
      soci::use(attempt.email), soci::into(account_id), soci::into(hash), soci::into(status);
  bool found = sql->got_data();
  Subject subject = emailSubject(*sql, attempt.email);
  std::optional<std::string> browser;
  if (found && attempt.browser_token)
    browser = trustedBrowserOf(*sql, *attempt.browser_token, account_id, now);
  if (browser) subject = {"browser:" + *browser, LockScope::Browser};
  PasswordCheck check =
      checkUnder(*sql, subject, found ? hash : standInHash(), attempt.password, now);
  if (check.outcome == PasswordCheck::Outcome::Matches && !found)
    check.outcome = PasswordCheck::Outcome::Wrong;  // the stand-in's password, typed
  if (check.outcome == PasswordCheck::Outcome::Matches) {
    check.account_id = account_id;
    check.account_status = accountStatusFromString(status);
    check.browser = browser;
  }
  tx.commit();
  return check;
}

ApiError passwordLocked(const PasswordCheck& check) {
  nlohmann::json details = {{"reason", "password_locked"},
                            {"scope", toString(check.scope)},
                            {"failures", check.failures},
                            {"retry_after_seconds", check.retry_after.count()}};
  if (check.scope == LockScope::Email) details["unlock"] = "email_link";
  return ApiError(ErrorCode::RATE_LIMITED, details, static_cast<int>(check.retry_after.count()));
}

bool isAccountPassword(db::Database& db, const Caller& caller, const std::string& password,
                       TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  std::string hash, session;
  soci::indicator session_ind = soci::i_null;
  *sql << "SELECT a.password_hash, k.session_id FROM api_keys k JOIN accounts a ON a.id = "
          "k.account_id WHERE k.id = :key AND a.id = :account",
      soci::use(caller.key_id), soci::use(caller.account_id), soci::into(hash),
      soci::into(session, session_ind);
  if (!sql->got_data()) return false;
  Subject subject = session_ind == soci::i_ok
                        ? Subject{"session:" + session, LockScope::Session}
                        : Subject{"keys:" + caller.account_id, LockScope::Keys};
  PasswordCheck check = checkUnder(*sql, subject, hash, password, now);
  tx.commit();
  if (check.outcome == PasswordCheck::Outcome::Locked) throw passwordLocked(check);
  return check.outcome == PasswordCheck::Outcome::Matches;
}

void requireSessionStepUp(db::Database& db, const Caller& caller,
                          const std::optional<std::string>& password, TimePoint now) {
  if (!caller.dashboard_session) return;
  if (password && isAccountPassword(db, caller, *password, now)) return;
  throw ApiError(ErrorCode::STEP_UP_REQUIRED);
}

}  // namespace smsgw::accounts
