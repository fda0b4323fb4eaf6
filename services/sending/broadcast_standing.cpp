#include "services/sending/broadcast_standing.h"

#include <soci/soci.h>

#include <nlohmann/json.hpp>

namespace smsgw::sending {
namespace {

std::optional<std::string> optionalText(const nlohmann::json& row, const char* field) {
  const auto& value = row.at(field);
  return value.is_null() ? std::nullopt : std::optional<std::string>(value.get<std::string>());
}

int flag(const nlohmann::json& row, const char* field) {
  const auto& value = row.at(field);
  return value.is_null() ? 0 : value.get<int>();
}

}  // namespace

BroadcastStanding readBroadcastStanding(soci::session& sql, const Caller& caller,
                                        const std::string& group_id, const E164& from,
                                        const std::string& body_sha256, TimePoint now) {
  std::string mode(toString(caller.mode)), at = formatIso(now), text;
  sql << "SELECT row_to_json(s)::text FROM broadcast_standing(:a, :m, :g, :f, :h, "
         ":now::timestamptz) s",
      soci::use(caller.account_id), soci::use(mode), soci::use(group_id), soci::use(from.str()),
      soci::use(body_sha256), soci::use(at), soci::into(text);
  auto row = nlohmann::json::parse(text);
  BroadcastStanding s;
  s.members = row.at("members");
  if (!row.at("max_members").is_null()) s.own_max_members = row.at("max_members").get<int>();
  if (!row.at("per_day").is_null()) s.own_per_day = row.at("per_day").get<int>();
  s.slots_used = row.at("slots_used");
  s.slot_frees_in = row.at("slot_frees_in");
  s.balance_cents = row.at("balance_cents");
  numbers::SendingNumberColumns number;
  if (auto status = optionalText(row, "number_status")) {
    number.status = *status;
    number.status_ind = soci::i_ok;
  }
  if (auto type = optionalText(row, "number_type")) {
    number.number_type = *type;
    number.type_ind = soci::i_ok;
  }
  if (auto verification = optionalText(row, "verification")) {
    number.verification = *verification;
    number.verification_ind = soci::i_ok;
  }
  s.sender.number = number.standing();
  s.sender.account_verified = flag(row, "verified") != 0;
  if (auto paused_until = optionalText(row, "paused_until")) {
    s.sender.pause =
        messaging::SendingPause{*paused_until, optionalText(row, "pause_reason").value_or("")};
  }
  SendCounts& c = s.counts;
  if (!row.at("own_daily_limit").is_null())
    c.own_daily_limit = row.at("own_daily_limit").get<int>();
  c.sent_last_day = row.at("sent_last_day");
  c.daily_frees_in = row.at("daily_frees_in");
  c.fanout_recipients = row.at("fanout_recipients");
  c.fanout_frees_in = row.at("fanout_frees_in");
  c.part_price_cents = row.at("part_price_cents");
  return s;
}

std::vector<MemberStanding> readMemberStandings(soci::session& sql, const Caller& caller,
                                                const SendPolicy& policy,
                                                const std::optional<std::string>& broadcast_id,
                                                const std::string& group_id, const E164& from,
                                                const std::string& body_sha256, TimePoint now) {
  std::string mode(toString(caller.mode)), at = formatIso(now), text;
  std::string broadcast = broadcast_id.value_or(""), allow_list = caller.allow_list_id.value_or(""),
              deny_list = caller.deny_list_id.value_or("");
  soci::indicator broadcast_ind = broadcast_id ? soci::i_ok : soci::i_null,
                  allow_ind = caller.allow_list_id ? soci::i_ok : soci::i_null,
                  deny_ind = caller.deny_list_id ? soci::i_ok : soci::i_null, text_ind;
  int toll_free = isTollFreeNumber(from) ? 1 : 0;
  // One JSON array for every member: one value to fetch and parse, however large the group.
  sql << "SELECT json_agg(s)::text FROM broadcast_member_standing(:b, :g, :a, :m, :f, "
         ":toll_free::int::boolean, :h, :now::timestamptz, :cache_days, :failures, "
         ":failure_days, :allow_list, :deny_list) s",
      soci::use(broadcast, broadcast_ind), soci::use(group_id), soci::use(caller.account_id),
      soci::use(mode), soci::use(from.str()), soci::use(toll_free), soci::use(body_sha256),
      soci::use(at), soci::use(policy.lookup_cache_days), soci::use(policy.undeliverable_failures),
      soci::use(policy.undeliverable_days), soci::use(allow_list, allow_ind),
      soci::use(deny_list, deny_ind), soci::into(text, text_ind);
  std::vector<MemberStanding> members;
  if (text_ind != soci::i_ok) return members;  // no member with a number
  auto rows = nlohmann::json::parse(text);
  members.reserve(rows.size());
  for (const auto& row : rows) {
    MemberStanding m;
    m.to = row.at("to_number");
    if (auto id = optionalText(row, "reached_message_id")) {
      m.reached =
          ReachedMessage{*id, row.at("reached_status"), optionalText(row, "reached_error_code")};
    }
    m.fence = {flag(row, "on_allow_list") != 0, flag(row, "on_deny_list") != 0};
    m.destination.cached_line_type = optionalText(row, "line_type");
    m.destination.undeliverable = flag(row, "undeliverable") != 0;
    m.consent.opted_out = flag(row, "opted_out") != 0;
    m.consent.consent_type = optionalText(row, "consent_type");
    m.consent.lapsed = flag(row, "lapsed") != 0;
    m.latest_consent_expired = flag(row, "latest_expired") != 0;
    m.recipient.recipient_last_hour = row.at("recipient_last_hour");
    m.recipient.recipient_last_day = row.at("recipient_last_day");
    m.recipient.recipient_hour_frees_in = row.at("recipient_hour_frees_in");
    m.recipient.recipient_day_frees_in = row.at("recipient_day_frees_in");
    m.fanned = flag(row, "fanned") != 0;
    m.double_opt_in = flag(row, "double_opt_in") != 0;
    members.push_back(std::move(m));
  }
  return members;
}

}  // namespace smsgw::sending
