#pragma once
// Whether a LIVE text may leave from one of the account's numbers: the account holds it, it is
// not suspended for unpaid rent, and a toll-free number's verification is APPROVED.

#include <soci/session.h>
#include <soci/soci-backend.h>

#include <optional>
#include <string>

#include "domain/phone.h"

namespace smsgw::numbers {

// What the database says of a `from` number.
struct SendingNumberStanding {
  bool held = false;  // the account holds it, active or suspended
  std::string status;
  std::string number_type;
  std::optional<std::string> toll_free_verification;  // the latest verification's status
};

// Where a query reads the three columns of the SQL function sending_number_standing (status,
// number_type, verification; null when the account does not hold the number) into, and the
// standing they make.
struct SendingNumberColumns {
  std::string status, number_type, verification;
  soci::indicator status_ind = soci::i_null, type_ind = soci::i_null,
                  verification_ind = soci::i_null;
  SendingNumberStanding standing() const;
};

// Throws ApiError PHONE_NUMBER_NOT_OWNED, PHONE_NUMBER_SUSPENDED or FORBIDDEN
// (details.reason toll_free_verification_not_approved).
void requireUsableSendingNumber(const SendingNumberStanding& standing, const E164& from);

// Reads the standing, then requireUsableSendingNumber.
void requireLiveSendingNumber(soci::session& sql, const std::string& account_id, const E164& from);

}  // namespace smsgw::numbers
