#pragma once
// Releasing a phone number back to the carrier.
//
// RELEASING (with the status to return to) commits before the carrier is asked. The carrier
// letting go, or saying it never held the number, makes it RELEASED with one
// `phone_number.released` event; a refusal puts it back as it was; a lost answer leaves it
// RELEASING for retryStaleReleases. Safe to call from several threads and processes: every
// write is guarded by the number's status.

#include <string>

#include "db/database.h"
#include "domain/carrier_client.h"
#include "domain/clock.h"

namespace smsgw::numbers {

// phone_number.released reasons (spec "PhoneNumber status").
inline constexpr const char* kCustomerReleased = "customer_released";
inline constexpr const char* kAdminReleased = "admin_released";
inline constexpr const char* kSuspendedGraceExpired = "suspended_grace_expired";

struct ReleaseResult {
  enum class Kind {
    Released,        // RELEASED now (the event was raised once, by whoever got there first)
    NotReleasable,   // no such number, already released, or not in the required state
    CarrierRefused,  // the number is unchanged
    Pending,         // the carrier could not be reached; left RELEASING, retried later
  };
  Kind kind = Kind::NotReleasable;
  std::string carrier_code;
  std::string detail;
};

// Releases an ACTIVE, SUSPENDED or RELEASING number.
ReleaseResult releaseNumber(db::Database& db, CarrierClient& carrier, const std::string& number_id,
                            const std::string& reason, TimePoint now);

// Releases a SUSPENDED number whose grace period ended by `as_of` (reason
// suspended_grace_expired); anything else is NotReleasable.
ReleaseResult releaseExpiredSuspension(db::Database& db, CarrierClient& carrier,
                                       const std::string& number_id, TimePoint as_of,
                                       TimePoint now);

// Asks the carrier again for numbers left RELEASING for longer than `stale_after` at `now`, of
// one account when given.
int retryStaleReleases(db::Database& db, CarrierClient& carrier, std::chrono::seconds stale_after,
                       TimePoint now, const std::optional<std::string>& account_id = {});

// Numbers left RELEASING for longer than `stale_after`: the carrier has confirmed neither that
// it let them go nor that it keeps them. The customer pays no rent for them, but the carrier
// may still bill the operator, so the rent-billing worker reports the count as a metric.
int releasesInDoubt(db::Database& db, std::chrono::seconds stale_after, TimePoint now,
                    const std::optional<std::string>& account_id = {});

}  // namespace smsgw::numbers
