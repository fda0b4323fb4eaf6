// Send limits (declared in send_checks.h). The counts are the SQL function
// send_counts (migration 0006): they read the messages table through partial indexes bounded by
// the limits themselves, and the daily count reads at most 24 hourly counters, so a check stays
// cheap however large the table grows.
#include <soci/soci.h>

#include <optional>

#include "api/routes/send_checks.h"
#include "domain/errors.h"

namespace smsgw::api {
namespace {

// Every count the limits need, and the outbound part price, in one round trip.
struct SendCounts {
  int recipient_last_hour = 0, recipient_last_day = 0;
  int recipient_hour_frees_in = 0, recipient_day_frees_in = 0;
  std::optional<int> own_daily_limit;
  int sent_last_day = 0, daily_frees_in = 0;
  int fanout_recipients = 0, fanout_frees_in = 0;
  int part_price_cents = 0;
};

SendCounts readSendCounts(soci::session& sql, const Caller& caller, const std::string& mode,
                          const E164& to, const std::string& body_sha256) {
  SendCounts c;
  int own_limit = 0;
  soci::indicator own_limit_ind = soci::i_null;
  sql << "SELECT * FROM send_counts(:a, :m, :t, :h)", soci::use(caller.account_id), soci::use(mode),
      soci::use(to.str()), soci::use(body_sha256), soci::into(c.recipient_last_hour),
      soci::into(c.recipient_last_day), soci::into(c.recipient_hour_frees_in),
      soci::into(c.recipient_day_frees_in), soci::into(own_limit, own_limit_ind),
      soci::into(c.sent_last_day), soci::into(c.daily_frees_in), soci::into(c.fanout_recipients),
      soci::into(c.fanout_frees_in), soci::into(c.part_price_cents);
  if (own_limit_ind == soci::i_ok) c.own_daily_limit = own_limit;
  return c;
}

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

void checkDailyLimit(const SendCounts& c, const SendPolicy& policy) {
  int limit = c.own_daily_limit.value_or(policy.daily_send_limit);
  if (c.sent_last_day >= limit) {
    throw ApiError(ErrorCode::DAILY_LIMIT_REACHED, {{"limit", limit}, {"count", c.sent_last_day}},
                   std::max(1, c.daily_frees_in));
  }
}

void checkFanout(const SendCounts& c, const SendPolicy& policy) {
  if (c.fanout_recipients >= policy.fanout_limit) {
    throw ApiError(ErrorCode::FANOUT_LIMIT_REACHED,
                   {{"limit", policy.fanout_limit}, {"recipients", c.fanout_recipients}},
                   std::max(1, c.fanout_frees_in));
  }
}

}  // namespace

int checkSendLimits(soci::session& sql, const Caller& caller, const SendPolicy& policy,
                    const E164& to, const std::string& body_sha256) {
  std::string mode(toString(caller.mode));
  SendCounts counts = readSendCounts(sql, caller, mode, to, body_sha256);
  checkRecipientRate(counts, policy);
  checkDailyLimit(counts, policy);
  checkFanout(counts, policy);
  return counts.part_price_cents;
}

}  // namespace smsgw::api
