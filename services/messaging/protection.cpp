#include "services/messaging/protection.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include <cmath>

#include "services/messaging/lifecycle.h"
#include "topics/event_writer.h"

namespace smsgw::messaging {
namespace {

// Messages the carrier judged: failures it never judged (lifecycle.h) are not the account's
// doing.
const std::string& settledAtCarrier() {
  static const std::string kCondition = [] {
    std::string codes;
    for (ErrorCode code : unjudgedFailures()) {
      codes += (codes.empty() ? "'" : ", '") + std::string(errorInfo(code).name) + "'";
    }
    return "(m.status IN ('DELIVERED', 'UNDELIVERED') OR (m.status = 'FAILED' AND m.error_code "
           "NOT IN (" +
           codes + ")))";
  }();
  return kCondition;
}

// Starts a pause unless one is in force; returns whether it started.
bool pauseSending(soci::session& sql, const std::string& account_id, const std::string& reason,
                  const SendPolicy& policy, TimePoint now) {
  std::string until, at = formatIso(now);
  sql << "UPDATE accounts SET sms_paused_until = :now::timestamptz + make_interval(hours => :h), "
         "sms_pause_reason = :r WHERE id = :a AND (sms_paused_until IS NULL OR sms_paused_until "
         "<= :now::timestamptz) RETURNING iso_ts(sms_paused_until)",
      soci::use(at, "now"), soci::use(policy.pause_hours, "h"), soci::use(reason, "r"),
      soci::use(account_id, "a"), soci::into(until);
  if (!sql.got_data()) return false;
  spdlog::warn("account {}: LIVE SMS sending paused until {} ({})", account_id, until, reason);
  topics::raiseEvent(sql, {account_id,
                           "account.sending_paused",
                           true,
                           {{"channel", "sms"}, {"paused_until", until}, {"reason", reason}}});
  return true;
}

}  // namespace

void reviewDeliveryHealth(soci::session& sql, const std::string& account_id,
                          const SendPolicy& policy, TimePoint now) {
  int sample = 0, failed = 0;
  sql << std::string(
             "SELECT count(*), count(*) FILTER (WHERE s.status <> 'DELIVERED') FROM "
             "(SELECT m.status FROM messages m WHERE m.account_id = :account AND m.mode = "
             "'LIVE' AND m.direction = 'OUTBOUND' AND m.auto_reply_keyword IS NULL AND ") +
             settledAtCarrier() + " ORDER BY m.created_at DESC LIMIT :sample) s",
      soci::use(account_id, "account"), soci::use(policy.protection_sample, "sample"),
      soci::into(sample), soci::into(failed);
  if (sample < policy.protection_sample) return;  // judge a full sample only
  int pct = static_cast<int>(std::lround(100.0 * failed / sample));
  if (failed * 100 > policy.delivery_warning_pct * sample) {
    // At most once per pause period.
    std::string warned, at = formatIso(now);
    sql << "UPDATE accounts SET delivery_warning_at = :now::timestamptz WHERE id = :a AND "
           "(delivery_warning_at IS NULL OR delivery_warning_at < :now::timestamptz - "
           "make_interval(hours => :h)) RETURNING id",
        soci::use(at, "now"), soci::use(account_id, "a"), soci::use(policy.pause_hours, "h"),
        soci::into(warned);
    if (sql.got_data()) {
      topics::raiseEvent(sql,
                         {account_id,
                          "account.delivery_warning",
                          true,
                          {{"failure_rate_pct", pct}, {"failed", failed}, {"sample", sample}}});
    }
  }
  if (failed * 100 > policy.failure_pause_pct * sample) {
    pauseSending(sql, account_id, "FAILURE_RATE", policy, now);
  }
}

void reviewOptOutRate(soci::session& sql, const std::string& account_id, const SendPolicy& policy,
                      TimePoint now) {
  int recipients = 0, opt_outs = 0;
  std::string at = formatIso(now);
  sql << "SELECT (SELECT count(DISTINCT to_number) FROM messages WHERE account_id = :a AND mode = "
         "'LIVE' AND direction = 'OUTBOUND' AND auto_reply_keyword IS NULL AND created_at > "
         ":now::timestamptz - interval '24 hours'), (SELECT count(*) FROM opt_outs WHERE "
         "account_id = :a AND mode = 'LIVE' AND opted_out_at > :now::timestamptz - interval "
         "'24 hours')",
      soci::use(account_id, "a"), soci::use(at, "now"), soci::into(recipients),
      soci::into(opt_outs);
  if (recipients < policy.opt_out_pause_min_sends) return;
  if (opt_outs * 100 > policy.opt_out_pause_pct * recipients) {
    pauseSending(sql, account_id, "OPT_OUT_RATE", policy, now);
  }
}

int raiseSpendWarnings(soci::session& sql, const SendPolicy& policy, TimePoint now) {
  // Real spend: SMS charges net of refunds and adjustments. A typical day is the average day
  // of the 28 before the last 24 hours.
  std::string at = formatIso(now);
  soci::rowset<soci::row> rows =
      (sql.prepare
           << "WITH spend AS (SELECT l.account_id, "
              "-sum(l.amount_cents) FILTER (WHERE l.created_at > :now::timestamptz - interval "
              "'1 hour') AS last_hour, -sum(l.amount_cents) FILTER (WHERE l.created_at <= "
              ":now::timestamptz - interval '24 hours') / 28 AS typical_day FROM ledger_entries "
              "l WHERE l.kind IN ('sms_outbound', 'sms_refund', 'sms_adjustment') AND "
              "l.created_at > :now::timestamptz - interval '29 days' AND l.account_id IN (SELECT "
              "DISTINCT account_id FROM ledger_entries WHERE kind = 'sms_outbound' AND "
              "created_at > :now::timestamptz - interval '1 hour') GROUP BY l.account_id) "
              "SELECT s.account_id, s.last_hour::bigint, "
              "coalesce(greatest(s.typical_day, 0), 0)::bigint FROM spend s JOIN "
              "accounts a ON a.id = s.account_id WHERE (a.spend_warning_at IS NULL OR "
              "a.spend_warning_at < :now::timestamptz - interval '24 hours') AND s.last_hour > "
              "greatest(:floor, coalesce(s.typical_day, 0) / 2)",
       soci::use(at, "now"), soci::use(policy.spend_warning_floor_cents, "floor"));
  struct Warning {
    std::string account;
    long long spent, typical;
  };
  std::vector<Warning> warnings;
  for (const auto& row : rows) {
    warnings.push_back({row.get<std::string>(0), row.get<long long>(1), row.get<long long>(2)});
  }
  int raised = 0;
  for (const auto& w : warnings) {
    std::string claimed;
    sql << "UPDATE accounts SET spend_warning_at = :now::timestamptz WHERE id = :a AND "
           "(spend_warning_at IS NULL OR spend_warning_at < :now::timestamptz - interval "
           "'24 hours') RETURNING id",
        soci::use(at, "now"), soci::use(w.account, "a"), soci::into(claimed);
    if (!sql.got_data()) continue;  // another pass got there first
    long long threshold = std::max<long long>(policy.spend_warning_floor_cents, w.typical / 2);
    topics::raiseEvent(sql, {w.account,
                             "account.spend_warning",
                             true,
                             {{"spent_last_hour_cents", w.spent},
                              {"typical_daily_cents", w.typical},
                              {"threshold_cents", threshold}}});
    ++raised;
  }
  return raised;
}

std::optional<SendingPause> activeSendingPause(soci::session& sql, const std::string& account_id,
                                               TimePoint now) {
  SendingPause pause;
  soci::indicator reason_ind = soci::i_null;
  std::string at = formatIso(now);
  sql << "SELECT iso_ts(sms_paused_until), sms_pause_reason FROM accounts WHERE id = :a AND "
         "sms_paused_until > :now::timestamptz",
      soci::use(account_id, "a"), soci::use(at, "now"), soci::into(pause.paused_until),
      soci::into(pause.reason, reason_ind);
  if (!sql.got_data()) return std::nullopt;
  return pause;
}

int raiseSpendWarnings(db::Database& db, const SendPolicy& policy, TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  int warned = raiseSpendWarnings(*sql, policy, now);
  tx.commit();
  return warned;
}

bool liftSendingPause(db::Database& db, const std::string& account_id) {
  db::Session sql(db);
  std::string updated;
  *sql << "UPDATE accounts SET sms_paused_until = NULL, sms_pause_reason = NULL "
          "WHERE id = :account RETURNING id",
      soci::use(account_id, "account"), soci::into(updated);
  return sql->got_data();
}

}  // namespace smsgw::messaging
