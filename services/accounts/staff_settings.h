#pragma once
// What staff set on an account by hand (smsgw-admin account …): a credit, and the limits the
// platform's defaults give every account unless staff set its own. The command line checks
// the values' ranges and prints; the writes live here.

#include <optional>
#include <string>

#include "db/database.h"
#include "domain/clock.h"

namespace smsgw::accounts {

struct StaffCredit {
  std::string credit_id;
  long long balance_cents = 0;
  int numbers_reactivated = 0;  // numbers suspended for unpaid rent, paid and active again
};
// Credits `cents` (> 0) with a ledger row saying why, as a top-up does: numbers suspended for
// want of funds are paid and active again in the same transaction. Nothing when there is no
// such account.
std::optional<StaffCredit> creditByStaff(db::Database& db, const std::string& account_id,
                                         long long cents, const std::string& note, TimePoint now);

// An account's own limit; none: the platform's default applies.
using AccountLimit = std::optional<int>;

// Each returns false, changing nothing, when there is no such account.
bool setInboundDailyCap(db::Database& db, const std::string& account_id, int cap);  // 0: none
bool setDailySendLimit(db::Database& db, const std::string& account_id, AccountLimit limit);
bool setRequestRate(db::Database& db, const std::string& account_id, AccountLimit per_second);

struct BroadcastLimits {
  AccountLimit max_members;
  AccountLimit per_day;
};
// Changes the limits given (an absent one stays as it is) in one statement; the limits after.
std::optional<BroadcastLimits> setBroadcastLimits(db::Database& db, const std::string& account_id,
                                                  std::optional<AccountLimit> max_members,
                                                  std::optional<AccountLimit> per_day);

}  // namespace smsgw::accounts
