#pragma once
// An account's status (spec "Account"): PENDING_PAYMENT until its first top-up, ACTIVE,
// SUSPENDED by staff (reinstatable), CLOSED (for good). What each allows, in one place: the HTTP
// edge, OAuth, the dashboard's sign-in and the webhook dispatcher ask here. Pure.

#include <string_view>

namespace smsgw {

enum class AccountStatus { PendingPayment, Active, Suspended, Closed };

std::string_view toString(AccountStatus status);  // "PENDING_PAYMENT", …
// Throws std::invalid_argument for a text the schema's CHECK would not let in.
AccountStatus accountStatusFromString(std::string_view text);

// Suspended or closed: no API call but those made for such accounts, no OAuth connection, and
// every webhook goes straight to the dead letters, replayable once reinstated (spec "Delivery
// rules" 8).
bool isHeld(AccountStatus status);

}  // namespace smsgw
