#include "services/sending/send_standing.h"

#include <soci/soci.h>

#include <stdexcept>

#include "db/prepared_statement.h"
#include "services/accounts/key_callers.h"

namespace smsgw::sending {
namespace {

// Prepared: one call per send, planned afresh each time before.
const db::PreparedStatement& standingStatement() {
  static const db::PreparedStatement statement(
      "send_standing", std::string("SELECT ") + accounts::kKeyRowColumn +
                           ", s.* FROM send_standing($1::text, $2::text, $3::text, $4::text, "
                           "$5::timestamptz, $6::text, $7::int, $8::int, $9::int, $10::text, "
                           "$11::text) s " +
                           accounts::keyRowJoin(12, 5));
  return statement;
}

// The result's columns, in send_standing's order after the key's row.
enum Column {
  kKeyRow,
  kOnAllowList,
  kOnDenyList,
  kLineType,
  kUndeliverable,
  kVerified,
  kPausedUntil,
  kPauseReason,
  kNumberStatus,
  kNumberType,
  kVerification,
  kOptedOut,
  kConsentType,
  kLapsed,
  kRecipientLastHour,
  kRecipientLastDay,
  kRecipientHourFreesIn,
  kRecipientDayFreesIn,
  kOwnDailyLimit,
  kSentLastDay,
  kDailyFreesIn,
  kFanoutRecipients,
  kFanoutFreesIn,
  kPartPriceCents,
  kColumns
};

int whole(const db::Cell& cell) {
  return static_cast<int>(db::integerOf(cell));
}
bool yes(const db::Cell& cell) {
  return cell && db::integerOf(cell) != 0;
}

}  // namespace

SendStanding readSendStanding(soci::session& sql, const Caller& caller, const SendPolicy& policy,
                              const E164& from, const E164& to, const std::string& body_sha256,
                              TimePoint now, const std::optional<std::string>& confirm_key_hash) {
  // Without a key to confirm, the hash is null and api_key_caller finds no row; the key's lists
  // are null (nothing read) for a key without them.
  std::vector<db::Row> rows = standingStatement().run(
      sql,
      {caller.account_id, std::string(toString(caller.mode)), from.str(), to.str(), formatIso(now),
       body_sha256, std::to_string(policy.lookup_cache_days),
       std::to_string(policy.undeliverable_failures), std::to_string(policy.undeliverable_days),
       caller.allow_list_id, caller.deny_list_id, confirm_key_hash});
  if (rows.size() != 1 || rows[0].size() != kColumns)
    throw std::logic_error("send_standing answered an unexpected shape");
  db::Row& row = rows[0];
  SendStanding s;
  s.fence = {yes(row[kOnAllowList]), yes(row[kOnDenyList])};
  s.destination.cached_line_type = row[kLineType];
  s.destination.undeliverable = yes(row[kUndeliverable]);
  numbers::SendingNumberColumns number;
  if (row[kNumberStatus]) number.status = *row[kNumberStatus], number.status_ind = soci::i_ok;
  if (row[kNumberType]) number.number_type = *row[kNumberType], number.type_ind = soci::i_ok;
  if (row[kVerification]) {
    number.verification = *row[kVerification];
    number.verification_ind = soci::i_ok;
  }
  s.sender.number = number.standing();
  s.sender.account_verified = yes(row[kVerified]);
  if (row[kPausedUntil]) {
    s.sender.pause = messaging::SendingPause{*row[kPausedUntil], db::textOr(row[kPauseReason])};
  }
  s.consent.opted_out = yes(row[kOptedOut]);
  s.consent.lapsed = yes(row[kLapsed]);
  s.consent.consent_type = row[kConsentType];
  SendCounts& c = s.counts;
  c.recipient_last_hour = whole(row[kRecipientLastHour]);
  c.recipient_last_day = whole(row[kRecipientLastDay]);
  c.recipient_hour_frees_in = whole(row[kRecipientHourFreesIn]);
  c.recipient_day_frees_in = whole(row[kRecipientDayFreesIn]);
  if (row[kOwnDailyLimit]) c.own_daily_limit = whole(row[kOwnDailyLimit]);
  c.sent_last_day = whole(row[kSentLastDay]);
  c.daily_frees_in = whole(row[kDailyFreesIn]);
  c.fanout_recipients = whole(row[kFanoutRecipients]);
  c.fanout_frees_in = whole(row[kFanoutFreesIn]);
  c.part_price_cents = whole(row[kPartPriceCents]);
  s.key_row = std::move(row[kKeyRow]);
  return s;
}

}  // namespace smsgw::sending
