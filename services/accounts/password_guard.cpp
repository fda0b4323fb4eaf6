#include "services/accounts/password_guard.h"

#include <soci/soci.h>

#include "domain/crypto.h"
#include "domain/errors.h"
#include "domain/password_backoff.h"

namespace smsgw::accounts {
namespace {

// What wrong passwords are counted under: the email as the account lookup compares it.
constexpr const char* kSubject = "encode(sha256(convert_to(lower(:email), 'UTF8')), 'hex')";

const std::string& standInHash() {
  static const std::string hash = crypto::hashPassword("no account has this password");
  return hash;
}

struct Standing {
  int failures = 0;
  long long blocked_seconds = 0;  // still to wait; 0 when the password may be tried
};

Standing standingOf(soci::session& sql, const std::string& email, const std::string& at) {
  Standing standing;
  long long failures = 0;
  int memory_hours = static_cast<int>(kPasswordFailureMemory.count());
  sql << "SELECT CASE WHEN last_failed_at < :now::timestamptz - make_interval(hours => :memory) "
         "THEN 0 ELSE failures END, greatest(0, ceil(extract(epoch FROM coalesce(blocked_until, "
         ":now2::timestamptz) - :now3::timestamptz)))::bigint FROM password_failures "
         "WHERE subject = " +
             std::string(kSubject),
      soci::use(at), soci::use(memory_hours), soci::use(at), soci::use(at), soci::use(email),
      soci::into(failures), soci::into(standing.blocked_seconds);
  if (!sql.got_data()) return {};
  standing.failures = static_cast<int>(failures);
  return standing;
}

void countFailure(soci::session& sql, const std::string& email, int failures,
                  const std::string& at) {
  long long block = passwordBlockAfter(failures).count();
  sql << "INSERT INTO password_failures (subject, failures, last_failed_at, blocked_until) "
         "VALUES (" +
             std::string(kSubject) +
             ", :failures, :now::timestamptz, CASE WHEN :block > 0 THEN :now2::timestamptz + "
             "make_interval(secs => :block2) END) ON CONFLICT (subject) DO UPDATE SET "
             "failures = excluded.failures, last_failed_at = excluded.last_failed_at, "
             "blocked_until = excluded.blocked_until",
      soci::use(email), soci::use(failures), soci::use(at), soci::use(block), soci::use(at),
      soci::use(block);
}

}  // namespace

PasswordCheck checkOwnerPassword(db::Database& db, const std::string& email,
                                 const std::string& password, TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  std::string at = formatIso(now), lock_key = "password:" + email;
  *sql << "SELECT pg_advisory_xact_lock(hashtextextended(lower(:k), 0))", soci::use(lock_key);
  Standing standing = standingOf(*sql, email, at);
  if (standing.blocked_seconds > 0) {
    tx.commit();
    return {PasswordCheck::Outcome::Locked, "", "", std::chrono::seconds(standing.blocked_seconds)};
  }
  PasswordCheck check;
  std::string hash;
  *sql << "SELECT id, password_hash, status FROM accounts WHERE lower(email) = lower(:email)",
      soci::use(email), soci::into(check.account_id), soci::into(hash),
      soci::into(check.account_status);
  bool found = sql->got_data();
  bool matches = crypto::verifyPassword(password, found ? hash : standInHash());
  if (found && matches) {
    *sql << "DELETE FROM password_failures WHERE subject = " + std::string(kSubject),
        soci::use(email);
    tx.commit();
    check.outcome = PasswordCheck::Outcome::Matches;
    return check;
  }
  countFailure(*sql, email, standing.failures + 1, at);
  tx.commit();
  return {PasswordCheck::Outcome::Wrong, "", "", std::chrono::seconds(0)};
}

ApiError passwordLocked(const PasswordCheck& check) {
  return ApiError(
      ErrorCode::RATE_LIMITED,
      {{"reason", "password_locked"}, {"retry_after_seconds", check.retry_after.count()}},
      static_cast<int>(check.retry_after.count()));
}

bool isAccountPassword(db::Database& db, const std::string& account_id, const std::string& password,
                       TimePoint now) {
  std::string email;
  {
    db::Session sql(db);
    *sql << "SELECT email FROM accounts WHERE id = :id", soci::use(account_id), soci::into(email);
    if (!sql->got_data()) return false;
  }
  PasswordCheck check = checkOwnerPassword(db, email, password, now);
  if (check.outcome == PasswordCheck::Outcome::Locked) throw passwordLocked(check);
  return check.outcome == PasswordCheck::Outcome::Matches && check.account_id == account_id;
}

}  // namespace smsgw::accounts
