#include "db/procedures/accept_outbound_message.h"

#include <soci/soci.h>

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
  std::string consent = send.consent_type.value_or(""), at = formatIso(send.now);
  soci::indicator consent_ind = send.consent_type ? soci::i_ok : soci::i_null,
                  request_ind = send.request_id.empty() ? soci::i_null : soci::i_ok;
  int queue_again = send.queue_again ? 1 : 0;
  std::string refusal, send_at, rendered;
  soci::indicator refusal_ind = soci::i_null, send_at_ind = soci::i_null,
                  rendered_ind = soci::i_null;
  sql << kAcceptOutboundMessage.callText("refusal, send_at, rendered"),
      soci::use(send.message_id, "p_id"), soci::use(send.account_id, "p_account"),
      soci::use(send.mode, "p_mode"), soci::use(send.from, "p_from"), soci::use(send.to, "p_to"),
      soci::use(send.body, "p_body"), soci::use(send.parts, "p_parts"),
      soci::use(send.cost_cents, "p_cost_cents"),
      soci::use(send.part_price_cents, "p_part_price_cents"),
      soci::use(send.body_sha256, "p_body_sha256"),
      soci::use(consent, consent_ind, "p_consent_type"), soci::use(queue_again, "p_queue_again"),
      soci::use(send.attempt, "p_attempt"), soci::use(send.charge_reference, "p_charge_reference"),
      soci::use(send.charge_description, "p_charge_description"),
      soci::use(send.toll_free_parts_per_minute, "p_toll_free_per_minute"),
      soci::use(send.local_parts_per_minute, "p_local_per_minute"),
      soci::use(send.event_id, "p_event_id"), soci::use(send.event_record, "p_event_record"),
      soci::use(send.events_topic, "p_events_topic"),
      soci::use(send.outbound_topic, "p_outbound_topic"),
      soci::use(send.outbound_record, "p_outbound_record"), soci::use(at, "p_now"),
      soci::use(send.request_id, request_ind, "p_request_id"), soci::into(refusal, refusal_ind),
      soci::into(send_at, send_at_ind), soci::into(rendered, rendered_ind);
  OutboundAccepted accepted;
  if (refusal_ind == soci::i_ok) {
    accepted.refusal = verdictOf(kAcceptOutboundMessage, kRefusals, refusal);
    return accepted;
  }
  if (send_at_ind == soci::i_ok) accepted.send_at = send_at;
  if (rendered_ind == soci::i_ok) accepted.rendered = rendered;
  return accepted;
}

}  // namespace smsgw::db
