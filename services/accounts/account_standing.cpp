#include "services/accounts/account_standing.h"

#include <soci/soci.h>

#include <algorithm>
#include <optional>
#include <vector>

namespace smsgw::accounts {
namespace {

struct Move {
  std::vector<AccountStatus> from;
  AccountStatus to;
  std::optional<std::string> reason;  // none clears it
  bool only_without_numbers = false;
};

StandingChange apply(db::Database& db, const std::string& account_id, const Move& move) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  std::string found;
  *sql << "SELECT status FROM accounts WHERE id = :id FOR UPDATE", soci::use(account_id, "id"),
      soci::into(found);
  StandingChange change;
  if (!sql->got_data()) return change;
  change.status = accountStatusFromString(found);
  if (std::find(move.from.begin(), move.from.end(), change.status) == move.from.end()) {
    change.outcome = StandingOutcome::WrongStatus;
    return change;
  }
  if (move.only_without_numbers) {
    *sql << "SELECT count(*) FROM phone_numbers WHERE account_id = :id AND status <> 'RELEASED'",
        soci::use(account_id, "id"), soci::into(change.numbers_held);
    if (change.numbers_held > 0) {
      change.outcome = StandingOutcome::HoldsNumbers;
      return change;
    }
  }
  std::string to(toString(move.to));
  std::string reason = move.reason.value_or("");
  soci::indicator reason_indicator = move.reason ? soci::i_ok : soci::i_null;
  *sql << "UPDATE accounts SET status = :status, status_reason = :reason WHERE id = :id",
      soci::use(to, "status"), soci::use(reason, reason_indicator, "reason"),
      soci::use(account_id, "id");
  tx.commit();
  change.outcome = StandingOutcome::Changed;
  change.status = move.to;
  return change;
}

}  // namespace

StandingChange suspendAccount(db::Database& db, const std::string& account_id,
                              const std::string& reason) {
  return apply(db, account_id, {{AccountStatus::Active}, AccountStatus::Suspended, reason, false});
}

StandingChange reinstateAccount(db::Database& db, const std::string& account_id) {
  return apply(db, account_id,
               {{AccountStatus::Suspended}, AccountStatus::Active, std::nullopt, false});
}

StandingChange closeAccount(db::Database& db, const std::string& account_id,
                            const std::string& reason) {
  return apply(db, account_id,
               {{AccountStatus::PendingPayment, AccountStatus::Active, AccountStatus::Suspended},
                AccountStatus::Closed,
                reason,
                true});
}

}  // namespace smsgw::accounts
