#include "db/procedures/accept_outbound_message.h"

#include <soci/soci.h>

#include <stdexcept>

#include "db/prepared_statement.h"

namespace smsgw::db {
namespace {

constexpr std::pair<std::string_view, OutboundRefusal> kRefusals[] = {
    {"INSUFFICIENT_BALANCE", OutboundRefusal::InsufficientBalance},
    {"PHONE_NUMBER_NOT_OWNED", OutboundRefusal::PhoneNumberNotOwned},
    {"ALREADY_QUEUED", OutboundRefusal::AlreadyQueued},
};

// A named function, not a lambda: its address is a constant, so the Procedure below is
// constant-initialized (cert-err58-cpp).
std::vector<std::string_view> allVerdicts() {
  return verdictTexts(kRefusals);
}

}  // namespace

const Procedure kAcceptOutboundMessage{"accept_outbound_message",
                                       {{"p_id", "text"},
                                        {"p_account", "text"},
                                        {"p_mode", "text"},
                                        {"p_from", "text"},
                                        {"p_to", "text"},
                                        {"p_body", "text"},
                                        {"p_parts", "integer"},
                                        {"p_cost_cents", "bigint"},
                                        {"p_part_price_cents", "integer"},
                                        {"p_body_sha256", "text"},
                                        {"p_consent_type", "text"},
                                        {"p_queue_again", "boolean", "int::boolean"},
                                        {"p_attempt", "integer"},
                                        {"p_status", "text"},
                                        {"p_event_type", "text"},
                                        {"p_charge_reference", "text"},
                                        {"p_charge_description", "text"},
                                        {"p_toll_free_per_minute", "numeric"},
                                        {"p_local_per_minute", "numeric"},
                                        {"p_event_id", "uuid"},
                                        {"p_event_record", "jsonb"},
                                        {"p_events_topic", "text"},
                                        {"p_outbound_topic", "text"},
                                        {"p_outbound_record", "text"},
                                        {"p_now", "timestamp with time zone"},
                                        {"p_request_id", "text"}},
                                       "TABLE(refusal text, send_at text, rendered text)",
                                       allVerdicts};

OutboundAccepted acceptOutboundMessage(soci::session& sql, const OutboundAcceptance& send) {
  // Prepared: one call per accepted send.
  static const PreparedStatement accept(
      "accept_outbound_message", kAcceptOutboundMessage.preparedText("refusal, send_at, rendered"));
  Cell request_id = nullIfEmpty(send.request_id);
  std::vector<Row> rows = accept.run(
      sql, kAcceptOutboundMessage.inOrder(
               {{"p_id", send.message_id},
                {"p_account", send.account_id},
                {"p_mode", send.mode},
                {"p_from", send.from},
                {"p_to", send.to},
                {"p_body", send.body},
                {"p_parts", std::to_string(send.parts)},
                {"p_cost_cents", std::to_string(send.cost_cents)},
                {"p_part_price_cents", std::to_string(send.part_price_cents)},
                {"p_body_sha256", send.body_sha256},
                {"p_consent_type", send.consent_type},
                {"p_queue_again", std::string(send.queue_again ? "true" : "false")},
                {"p_attempt", std::to_string(send.attempt)},
                {"p_status", send.status},
                {"p_event_type", send.event_type},
                {"p_charge_reference", send.charge_reference},
                {"p_charge_description", send.charge_description},
                {"p_toll_free_per_minute", std::to_string(send.toll_free_parts_per_minute)},
                {"p_local_per_minute", std::to_string(send.local_parts_per_minute)},
                {"p_event_id", send.event_id},
                {"p_event_record", send.event_record},
                {"p_events_topic", send.events_topic},
                {"p_outbound_topic", send.outbound_topic},
                {"p_outbound_record", send.outbound_record},
                {"p_now", formatIso(send.now)},
                {"p_request_id", request_id}}));
  if (rows.size() != 1) throw std::logic_error("accept_outbound_message answered no row");
  Row& row = rows.front();
  OutboundAccepted accepted;
  if (row[0]) {
    accepted.refusal = verdictOf(kAcceptOutboundMessage, kRefusals, *row[0]);
    return accepted;
  }
  accepted.send_at = std::move(row[1]);
  accepted.rendered = std::move(row[2]);
  return accepted;
}

}  // namespace smsgw::db
