#pragma once
// Staff's moves of an account's status (domain/account_status.h says what each allows): suspend
// an ACTIVE account, reinstate a SUSPENDED one, close one for good. The API never moves these;
// smsgw-admin does, through here. Each move reads the status under the account's row lock and
// writes it in the same transaction, so two staff acting at once cannot both move it.
//
// Closing is refused while the account holds a phone number (any not RELEASED): rent is charged
// per number until it is released, and a release is a call to the carrier that can fail, which
// a status change must not hide. Staff release each number first (smsgw-admin number release).
// A CLOSED account is never reopened.

#include <string>

#include "db/database.h"
#include "domain/account_status.h"

namespace smsgw::accounts {

enum class StandingOutcome { Changed, NoSuchAccount, WrongStatus, HoldsNumbers };

struct StandingChange {
  StandingOutcome outcome = StandingOutcome::NoSuchAccount;
  AccountStatus status = AccountStatus::PendingPayment;  // after the move, or as found
  int numbers_held = 0;                                  // HoldsNumbers: how many
};

// ACTIVE → SUSPENDED; the reason is kept on the account (status_reason).
StandingChange suspendAccount(db::Database& db, const std::string& account_id,
                              const std::string& reason);
// SUSPENDED → ACTIVE; the reason is cleared.
StandingChange reinstateAccount(db::Database& db, const std::string& account_id);
// PENDING_PAYMENT, ACTIVE or SUSPENDED → CLOSED, when it holds no number.
StandingChange closeAccount(db::Database& db, const std::string& account_id,
                            const std::string& reason);

}  // namespace smsgw::accounts
