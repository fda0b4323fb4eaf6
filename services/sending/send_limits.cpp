// Send limits (declared in send_checks.h), decided from the counts send_standing read. The
// counts are the SQL function send_counts (migration 0006): they read the messages table
// through partial indexes bounded by the limits themselves, and the daily count reads at most
// 24 hourly counters, so a check stays cheap however large the table grows.
#include <algorithm>
#include <optional>

#include "domain/errors.h"
#include "services/sending/send_checks.h"

namespace smsgw::sending {

void checkRecipientRate(const SendCounts& c, const SendPolicy& policy) {
  if (c.recipient_last_day >= policy.recipient_daily_limit) {
    throw ApiError(ErrorCode::RECIPIENT_RATE_LIMITED,
                   {{"window", "day"},
                    {"limit", policy.recipient_daily_limit},
                    {"count", c.recipient_last_day}},
                   std::max(1, c.recipient_day_frees_in));
  }
  if (c.recipient_last_hour >= policy.recipient_hourly_limit) {
    throw ApiError(ErrorCode::RECIPIENT_RATE_LIMITED,
                   {{"window", "hour"},
                    {"limit", policy.recipient_hourly_limit},
                    {"count", c.recipient_last_hour}},
                   std::max(1, c.recipient_hour_frees_in));
  }
}

void checkDailyLimit(const SendCounts& c, const SendPolicy& policy, int adding) {
  int limit = c.own_daily_limit.value_or(policy.daily_send_limit);
  if (c.sent_last_day + adding > limit) {
    nlohmann::json details = {{"limit", limit}, {"count", c.sent_last_day}};
    if (adding > 1) details["adding"] = adding;
    throw ApiError(ErrorCode::DAILY_LIMIT_REACHED, details, std::max(1, c.daily_frees_in));
  }
}

void checkFanout(const SendCounts& c, const SendPolicy& policy, int adding) {
  if (c.fanout_recipients + adding > policy.fanout_limit) {
    nlohmann::json details = {{"limit", policy.fanout_limit}, {"recipients", c.fanout_recipients}};
    if (adding > 1) details["adding"] = adding;
    throw ApiError(ErrorCode::FANOUT_LIMIT_REACHED, details, std::max(1, c.fanout_frees_in));
  }
}

void checkSendLimits(const SendCounts& counts, const SendPolicy& policy) {
  checkRecipientRate(counts, policy);
  checkDailyLimit(counts, policy);
  checkFanout(counts, policy);
}

}  // namespace smsgw::sending
