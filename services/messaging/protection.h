#pragma once
// Automatic account protection (spec "Account events"): a delivery warning, then a pause of
// LIVE SMS sending when too many messages fail at the carrier or too many recipients opt out,
// and a spend warning. Each is raised at most once per period; the webhook dispatcher also
// emails account events to the owner. Every period is measured from the caller's `now`.

#include <soci/session.h>

#include <optional>
#include <string>

#include "db/database.h"
#include "domain/clock.h"
#include "domain/send_policy.h"

namespace smsgw::messaging {

// After a LIVE message failed at the carrier (refused, undelivered or failed by receipt).
void reviewDeliveryHealth(soci::session& sql, const std::string& account_id,
                          const SendPolicy& policy, TimePoint now);

// After a LIVE opt-out was recorded.
void reviewOptOutRate(soci::session& sql, const std::string& account_id, const SendPolicy& policy,
                      TimePoint now);

// Raises account.spend_warning for every account whose SMS spend of the last hour is over its
// threshold; returns how many were raised. Run periodically.
int raiseSpendWarnings(soci::session& sql, const SendPolicy& policy, TimePoint now);
// The same in a transaction of its own.
int raiseSpendWarnings(db::Database& db, const SendPolicy& policy, TimePoint now);

struct SendingPause {
  std::string paused_until;  // ISO 8601 UTC
  std::string reason;        // FAILURE_RATE or OPT_OUT_RATE
};
// Staff lift a pause before its end (smsgw-admin account resume); false when there is no such
// account.
bool liftSendingPause(db::Database& db, const std::string& account_id);

// The pause in force at `now`, if any.
std::optional<SendingPause> activeSendingPause(soci::session& sql, const std::string& account_id,
                                               TimePoint now);

}  // namespace smsgw::messaging
