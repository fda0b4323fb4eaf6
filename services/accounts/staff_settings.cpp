#include "services/accounts/staff_settings.h"

#include <soci/soci.h>

#include "db/ledger.h"
#include "domain/ids.h"
#include "services/numbers/rent.h"

namespace smsgw::accounts {
namespace {

soci::indicator indicatorOf(const AccountLimit& limit) {
  return limit ? soci::i_ok : soci::i_null;
}

AccountLimit limitOf(int value, soci::indicator indicator) {
  return indicator == soci::i_ok ? AccountLimit(value) : std::nullopt;
}

// One column of the account set to `limit` (null: the platform's default); false when there is
// no such account.
bool setLimit(db::Database& db, const std::string& account_id, const std::string& update,
              const AccountLimit& limit) {
  db::Session sql(db);
  int value = limit.value_or(0);
  soci::indicator value_ind = indicatorOf(limit);
  std::string updated;
  *sql << update, soci::use(value, value_ind, "value"), soci::use(account_id, "account"),
      soci::into(updated);
  return sql->got_data();
}

}  // namespace

std::optional<StaffCredit> creditByStaff(db::Database& db, const std::string& account_id,
                                         long long cents, const std::string& note, TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  StaffCredit credit{.credit_id = newId("credit")};
  auto posted = db::postLedgerEntry(
      *sql, {account_id, cents, "staff_credit", credit.credit_id, "Staff credit: " + note});
  // A credit never finds the balance short and its id is new: anything else is no account.
  if (posted.outcome != db::LedgerOutcome::Posted) return std::nullopt;
  credit.numbers_reactivated = numbers::reactivateSuspended(*sql, account_id, now);
  // After the rent the reactivation charged.
  *sql << "SELECT balance_cents FROM accounts WHERE id = :account",
      soci::use(account_id, "account"), soci::into(credit.balance_cents);
  tx.commit();
  return credit;
}

bool setInboundDailyCap(db::Database& db, const std::string& account_id, int cap) {
  return setLimit(db, account_id,
                  "UPDATE accounts SET inbound_sms_daily_cap = :value WHERE id = :account "
                  "RETURNING id",
                  cap);
}

bool setDailySendLimit(db::Database& db, const std::string& account_id, AccountLimit limit) {
  return setLimit(db, account_id,
                  "UPDATE accounts SET daily_send_limit = :value WHERE id = :account RETURNING id",
                  limit);
}

bool setRequestRate(db::Database& db, const std::string& account_id, AccountLimit per_second) {
  return setLimit(db, account_id,
                  "UPDATE accounts SET requests_per_second = :value WHERE id = :account "
                  "RETURNING id",
                  per_second);
}

std::optional<BroadcastLimits> setBroadcastLimits(db::Database& db, const std::string& account_id,
                                                  std::optional<AccountLimit> max_members,
                                                  std::optional<AccountLimit> per_day) {
  db::Session sql(db);
  // Whether each is changed, and to what: one statement, so a limit not given stays as it is.
  int change_members = max_members ? 1 : 0, change_per_day = per_day ? 1 : 0;
  AccountLimit members_to = max_members.value_or(std::nullopt);
  AccountLimit per_day_to = per_day.value_or(std::nullopt);
  int members_value = members_to.value_or(0), per_day_value = per_day_to.value_or(0);
  soci::indicator members_in = indicatorOf(members_to), per_day_in = indicatorOf(per_day_to);
  int members = 0, per_day_now = 0;
  soci::indicator members_ind = soci::i_null, per_day_ind = soci::i_null;
  *sql << "UPDATE accounts SET "
          "broadcast_max_members = CASE WHEN :change_members = 1 THEN :members "
          "ELSE broadcast_max_members END, "
          "broadcasts_per_day = CASE WHEN :change_per_day = 1 THEN :per_day "
          "ELSE broadcasts_per_day END "
          "WHERE id = :account RETURNING broadcast_max_members, broadcasts_per_day",
      soci::use(change_members, "change_members"), soci::use(members_value, members_in, "members"),
      soci::use(change_per_day, "change_per_day"), soci::use(per_day_value, per_day_in, "per_day"),
      soci::use(account_id, "account"), soci::into(members, members_ind),
      soci::into(per_day_now, per_day_ind);
  if (!sql->got_data()) return std::nullopt;
  return BroadcastLimits{limitOf(members, members_ind), limitOf(per_day_now, per_day_ind)};
}

}  // namespace smsgw::accounts
