#include "services/sending/send_standing.h"

#include <soci/soci.h>

#include "services/accounts/key_callers.h"

namespace smsgw::sending {
namespace {

// Where the nullable columns land before they become optionals.
struct NullableColumns {
  std::string line_type, paused_until, pause_reason, consent_type;
  soci::indicator line_type_ind = soci::i_null, undeliverable_ind = soci::i_null,
                  verified_ind = soci::i_null, paused_ind = soci::i_null, reason_ind = soci::i_null,
                  consent_ind = soci::i_null, own_limit_ind = soci::i_null;
  int undeliverable = 0, verified = 0, opted_out = 0, lapsed = 0, own_daily_limit = 0;
  int on_allow_list = 0, on_deny_list = 0;
};

}  // namespace

SendStanding readSendStanding(soci::session& sql, const Caller& caller, const SendPolicy& policy,
                              const E164& from, const E164& to, const std::string& body_sha256,
                              TimePoint now, const std::optional<std::string>& confirm_key_hash) {
  SendStanding s;
  NullableColumns n;
  numbers::SendingNumberColumns number;
  SendCounts& c = s.counts;
  std::string mode(toString(caller.mode));
  std::string now_text = formatIso(now);
  // Without a key to confirm, the hash is null and api_key_caller finds no row.
  std::string key_hash = confirm_key_hash.value_or(""), key_row;
  soci::indicator key_hash_ind = confirm_key_hash ? soci::i_ok : soci::i_null,
                  key_row_ind = soci::i_null;
  // The key's lists: null (nothing read) for a key without them.
  std::string allow_list = caller.allow_list_id.value_or(""),
              deny_list = caller.deny_list_id.value_or("");
  soci::indicator allow_ind = caller.allow_list_id ? soci::i_ok : soci::i_null,
                  deny_ind = caller.deny_list_id ? soci::i_ok : soci::i_null;
  sql << "SELECT " << accounts::kKeyRowColumn
      << ", s.* FROM send_standing(:a, :m, :f, :t, :now::timestamptz, :h, :cache_days, "
         ":failures, :failure_days, :allow_list, :deny_list) s "
      << accounts::kKeyRowJoin,
      soci::use(caller.account_id), soci::use(mode), soci::use(from.str()), soci::use(to.str()),
      soci::use(now_text), soci::use(body_sha256), soci::use(policy.lookup_cache_days),
      soci::use(policy.undeliverable_failures), soci::use(policy.undeliverable_days),
      soci::use(allow_list, allow_ind), soci::use(deny_list, deny_ind),
      soci::use(key_hash, key_hash_ind), soci::use(now_text), soci::into(key_row, key_row_ind),
      soci::into(n.on_allow_list), soci::into(n.on_deny_list),
      soci::into(n.line_type, n.line_type_ind), soci::into(n.undeliverable, n.undeliverable_ind),
      soci::into(n.verified, n.verified_ind), soci::into(n.paused_until, n.paused_ind),
      soci::into(n.pause_reason, n.reason_ind), soci::into(number.status, number.status_ind),
      soci::into(number.number_type, number.type_ind),
      soci::into(number.verification, number.verification_ind), soci::into(n.opted_out),
      soci::into(n.consent_type, n.consent_ind), soci::into(n.lapsed),
      soci::into(c.recipient_last_hour), soci::into(c.recipient_last_day),
      soci::into(c.recipient_hour_frees_in), soci::into(c.recipient_day_frees_in),
      soci::into(n.own_daily_limit, n.own_limit_ind), soci::into(c.sent_last_day),
      soci::into(c.daily_frees_in), soci::into(c.fanout_recipients), soci::into(c.fanout_frees_in),
      soci::into(c.part_price_cents);

  s.fence = {n.on_allow_list != 0, n.on_deny_list != 0};
  if (n.line_type_ind == soci::i_ok) s.destination.cached_line_type = n.line_type;
  s.destination.undeliverable = n.undeliverable_ind == soci::i_ok && n.undeliverable != 0;
  s.sender.number = number.standing();
  s.sender.account_verified = n.verified_ind == soci::i_ok && n.verified != 0;
  if (n.paused_ind == soci::i_ok) {
    s.sender.pause =
        messaging::SendingPause{n.paused_until, n.reason_ind == soci::i_ok ? n.pause_reason : ""};
  }
  s.consent.opted_out = n.opted_out != 0;
  s.consent.lapsed = n.lapsed != 0;
  if (n.consent_ind == soci::i_ok) s.consent.consent_type = n.consent_type;
  if (n.own_limit_ind == soci::i_ok) c.own_daily_limit = n.own_daily_limit;
  if (key_row_ind == soci::i_ok) s.key_row = key_row;
  return s;
}

}  // namespace smsgw::sending
