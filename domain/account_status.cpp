#include "domain/account_status.h"

#include <stdexcept>
#include <string>

namespace smsgw {

std::string_view toString(AccountStatus status) {
  switch (status) {
    case AccountStatus::PendingPayment:
      return "PENDING_PAYMENT";
    case AccountStatus::Active:
      return "ACTIVE";
    case AccountStatus::Suspended:
      return "SUSPENDED";
    case AccountStatus::Closed:
      return "CLOSED";
  }
  throw std::invalid_argument("unknown account status");
}

AccountStatus accountStatusFromString(std::string_view text) {
  for (AccountStatus status : {AccountStatus::PendingPayment, AccountStatus::Active,
                               AccountStatus::Suspended, AccountStatus::Closed}) {
    if (toString(status) == text) return status;
  }
  throw std::invalid_argument("unknown account status: " + std::string(text));
}

bool isHeld(AccountStatus status) {
  return status == AccountStatus::Suspended || status == AccountStatus::Closed;
}

}  // namespace smsgw
