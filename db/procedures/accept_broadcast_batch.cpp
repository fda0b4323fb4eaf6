#include "db/procedures/accept_broadcast_batch.h"

#include <soci/soci.h>

namespace smsgw::db {
namespace {

constexpr std::pair<std::string_view, BatchRefusal> kRefusals[] = {
    {"INSUFFICIENT_BALANCE", BatchRefusal::InsufficientBalance},
    {"PHONE_NUMBER_NOT_OWNED", BatchRefusal::PhoneNumberNotOwned},
};

// A named function, not a lambda: its address is a constant, so the Procedure below is
// constant-initialized (cert-err58-cpp).
std::vector<std::string_view> allVerdicts() {
  return verdictTexts(kRefusals);
}

}  // namespace

const Procedure kAcceptBroadcastBatch{
    "accept_broadcast_batch",
    {{"p_broadcast", "text"},
     {"p_account", "text"},
     {"p_mode", "text"},
     {"p_from", "text"},
     {"p_body", "text"},
     {"p_parts", "integer"},
     {"p_part_price_cents", "integer"},
     {"p_body_sha256", "text"},
     {"p_status", "text"},
     {"p_event_type", "text"},
     {"p_toll_free_per_minute", "numeric"},
     {"p_local_per_minute", "numeric"},
     {"p_events_topic", "text"},
     {"p_outbound_topic", "text"},
     {"p_members", "jsonb"},
     {"p_now", "timestamp with time zone"},
     {"p_request_id", "text"}},
    "TABLE(refusal text, to_number text, message_id text, status text, error_code text)",
    allVerdicts};

BatchAccepted acceptBroadcastBatch(soci::session& sql, const BroadcastBatch& batch) {
  std::string at = formatIso(batch.now);
  soci::indicator request_ind = batch.request_id.empty() ? soci::i_null : soci::i_ok;
  soci::rowset<soci::row> rows =
      (sql.prepare << kAcceptBroadcastBatch.callText(
           "refusal, to_number, message_id, status, error_code"),
       soci::use(batch.broadcast_id, "p_broadcast"), soci::use(batch.account_id, "p_account"),
       soci::use(batch.mode, "p_mode"), soci::use(batch.from, "p_from"),
       soci::use(batch.body, "p_body"), soci::use(batch.parts, "p_parts"),
       soci::use(batch.part_price_cents, "p_part_price_cents"),
       soci::use(batch.body_sha256, "p_body_sha256"), soci::use(batch.status, "p_status"),
       soci::use(batch.event_type, "p_event_type"),
       soci::use(batch.toll_free_parts_per_minute, "p_toll_free_per_minute"),
       soci::use(batch.local_parts_per_minute, "p_local_per_minute"),
       soci::use(batch.events_topic, "p_events_topic"),
       soci::use(batch.outbound_topic, "p_outbound_topic"), soci::use(batch.members, "p_members"),
       soci::use(at, "p_now"), soci::use(batch.request_id, request_ind, "p_request_id"));
  BatchAccepted accepted;
  for (const soci::row& row : rows) {
    if (row.get_indicator(0) == soci::i_ok) {
      accepted.refusal = verdictOf(kAcceptBroadcastBatch, kRefusals, row.get<std::string>(0));
      accepted.messages.clear();
      return accepted;
    }
    BatchMessage message{row.get<std::string>(1), row.get<std::string>(2), row.get<std::string>(3),
                         std::nullopt};
    if (row.get_indicator(4) == soci::i_ok) message.error_code = row.get<std::string>(4);
    accepted.messages.push_back(std::move(message));
  }
  return accepted;
}

}  // namespace smsgw::db
