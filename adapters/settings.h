#pragma once
// Domain settings read from the environment, each variable with the default its struct gives.

#include "domain/send_policy.h"

namespace smsgw {

// RECIPIENT_HOURLY_LIMIT, RECIPIENT_DAILY_LIMIT, DAILY_SEND_LIMIT, FANOUT_LIMIT,
// LOCAL_PARTS_PER_MINUTE, TOLL_FREE_PARTS_PER_MINUTE, STALE_HANDOFF_SECONDS,
// NUMBER_LOOKUP_CACHE_DAYS, MESSAGE_RETENTION_DAYS, OUTBOX_RETENTION_HOURS, FAILURE_PAUSE_PCT,
// OPT_OUT_PAUSE_PCT, SENDING_PAUSE_HOURS. Throws std::invalid_argument naming a bad value.
SendPolicy sendPolicyFromEnvironment();

}  // namespace smsgw
