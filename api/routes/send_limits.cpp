// Send limits and per-number pacing (declared in send_checks.h). The counts read the messages
// table through partial indexes bounded by the limits themselves, and the daily count reads at
// most 24 hourly counters, so a check stays cheap however large the table grows.
#include <soci/soci.h>

#include "api/routes/send_checks.h"
#include "domain/errors.h"

namespace smsgw::api {
namespace {

void checkRecipientRate(soci::session& sql, const Caller& caller, const std::string& mode,
                        const SendPolicy& policy, const E164& to) {
  int last_hour = 0, last_day = 0, hour_frees_in = 0, day_frees_in = 0;
  sql << "SELECT count(*) FILTER (WHERE created_at > now() - interval '1 hour'), count(*), "
         "coalesce(ceil(extract(epoch FROM min(created_at) FILTER (WHERE created_at > now() - "
         "interval '1 hour') + interval '1 hour' - now())), 0)::int, "
         "coalesce(ceil(extract(epoch FROM min(created_at) + interval '1 day' - now())), 0)::int "
         "FROM messages WHERE account_id = :a AND mode = :m AND direction = 'OUTBOUND' AND "
         "to_number = :t AND created_at > now() - interval '1 day' AND auto_reply_keyword IS NULL",
      soci::use(caller.account_id), soci::use(mode), soci::use(to.str()), soci::into(last_hour),
      soci::into(last_day), soci::into(hour_frees_in), soci::into(day_frees_in);
  if (last_day >= policy.recipient_daily_limit) {
    throw ApiError(
        ErrorCode::RECIPIENT_RATE_LIMITED,
        {{"window", "day"}, {"limit", policy.recipient_daily_limit}, {"count", last_day}},
        std::max(1, day_frees_in));
  }
  if (last_hour >= policy.recipient_hourly_limit) {
    throw ApiError(
        ErrorCode::RECIPIENT_RATE_LIMITED,
        {{"window", "hour"}, {"limit", policy.recipient_hourly_limit}, {"count", last_hour}},
        std::max(1, hour_frees_in));
  }
}

void checkDailyLimit(soci::session& sql, const Caller& caller, const std::string& mode,
                     const SendPolicy& policy) {
  int limit = policy.daily_send_limit, count = 0, frees_in = 0;
  soci::indicator own_limit_ind = soci::i_null;
  int own_limit = 0;
  sql << "SELECT (SELECT daily_send_limit FROM accounts WHERE id = :a), coalesce(sum(sent), 0), "
         "coalesce(ceil(extract(epoch FROM min(hour) + interval '25 hours' - now())), 0)::int "
         "FROM account_send_hours WHERE account_id = :a2 AND mode = :m AND hour > "
         "date_trunc('hour', now()) - interval '24 hours'",
      soci::use(caller.account_id), soci::use(caller.account_id), soci::use(mode),
      soci::into(own_limit, own_limit_ind), soci::into(count), soci::into(frees_in);
  if (own_limit_ind == soci::i_ok) limit = own_limit;
  if (count >= limit) {
    throw ApiError(ErrorCode::DAILY_LIMIT_REACHED, {{"limit", limit}, {"count", count}},
                   std::max(1, frees_in));
  }
}

void checkFanout(soci::session& sql, const Caller& caller, const std::string& mode,
                 const SendPolicy& policy, const E164& to, const std::string& body_sha256) {
  int recipients = 0, frees_in = 0;
  sql << "SELECT count(DISTINCT to_number), coalesce(ceil(extract(epoch FROM min(created_at) + "
         "interval '1 day' - now())), 0)::int FROM messages WHERE account_id = :a AND mode = :m "
         "AND body_sha256 = :h AND created_at > now() - interval '1 day' AND to_number <> :t",
      soci::use(caller.account_id), soci::use(mode), soci::use(body_sha256), soci::use(to.str()),
      soci::into(recipients), soci::into(frees_in);
  if (recipients >= policy.fanout_limit) {
    throw ApiError(ErrorCode::FANOUT_LIMIT_REACHED,
                   {{"limit", policy.fanout_limit}, {"recipients", recipients}},
                   std::max(1, frees_in));
  }
}

}  // namespace

void checkSendLimits(soci::session& sql, const Caller& caller, const SendPolicy& policy,
                     const E164& to, const std::string& body_sha256) {
  std::string mode(toString(caller.mode));
  checkRecipientRate(sql, caller, mode, policy, to);
  checkDailyLimit(sql, caller, mode, policy);
  checkFanout(sql, caller, mode, policy, to, body_sha256);
}

void countSend(soci::session& sql, const Caller& caller) {
  std::string mode(toString(caller.mode));
  sql << "INSERT INTO account_send_hours AS h (account_id, mode, hour, sent) VALUES (:a, :m, "
         "date_trunc('hour', now()), 1) ON CONFLICT (account_id, mode, hour) DO UPDATE SET "
         "sent = h.sent + 1",
      soci::use(caller.account_id), soci::use(mode);
}

std::string reserveSendSlot(soci::session& sql, const std::string& account_id, const E164& from,
                            int parts, const SendPolicy& policy) {
  // A number's parts go one after another at its rate: this message starts when the parts
  // already waiting are through, and holds the number for its own parts.
  std::string slot;
  sql << "WITH slot AS (SELECT id, number_type, greatest(coalesce(next_send_at, now()), now()) "
         "AS at FROM phone_numbers WHERE account_id = :a AND phone_number = :n AND status = "
         "'ACTIVE' FOR UPDATE) UPDATE phone_numbers p SET next_send_at = slot.at + "
         "make_interval(secs => :parts::int * 60.0 / CASE WHEN slot.number_type = 'toll_free' THEN "
         ":tf::numeric ELSE :local::numeric END) FROM slot WHERE p.id = slot.id RETURNING "
         "iso_ts(slot.at)",
      soci::use(account_id), soci::use(from.str()), soci::use(parts),
      soci::use(policy.toll_free_parts_per_minute), soci::use(policy.local_parts_per_minute),
      soci::into(slot);
  if (!sql.got_data()) throw ApiError(ErrorCode::PHONE_NUMBER_NOT_OWNED, {{"from", from.str()}});
  return slot;
}

}  // namespace smsgw::api
