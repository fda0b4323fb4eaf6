#include "adapters/settings.h"

#include "adapters/env.h"

namespace smsgw {

SendPolicy sendPolicyFromEnvironment() {
  SendPolicy p;
  p.recipient_hourly_limit = env::getInt("RECIPIENT_HOURLY_LIMIT", p.recipient_hourly_limit);
  p.recipient_daily_limit = env::getInt("RECIPIENT_DAILY_LIMIT", p.recipient_daily_limit);
  p.daily_send_limit = env::getInt("DAILY_SEND_LIMIT", p.daily_send_limit);
  p.fanout_limit = env::getInt("FANOUT_LIMIT", p.fanout_limit);
  p.local_parts_per_minute = env::getInt("LOCAL_PARTS_PER_MINUTE", p.local_parts_per_minute);
  p.toll_free_parts_per_minute =
      env::getInt("TOLL_FREE_PARTS_PER_MINUTE", p.toll_free_parts_per_minute);
  p.stale_handoff_seconds = env::getInt("STALE_HANDOFF_SECONDS", p.stale_handoff_seconds);
  p.lookup_cache_days = env::getInt("NUMBER_LOOKUP_CACHE_DAYS", p.lookup_cache_days);
  p.message_retention_days = env::getInt("MESSAGE_RETENTION_DAYS", p.message_retention_days);
  p.outbox_retention_hours = env::getInt("OUTBOX_RETENTION_HOURS", p.outbox_retention_hours);
  p.failure_pause_pct = env::getInt("FAILURE_PAUSE_PCT", p.failure_pause_pct);
  p.opt_out_pause_pct = env::getInt("OPT_OUT_PAUSE_PCT", p.opt_out_pause_pct);
  p.pause_hours = env::getInt("SENDING_PAUSE_HOURS", p.pause_hours);
  return p;
}

}  // namespace smsgw
