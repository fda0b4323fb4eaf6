#include "services/messaging/receipts.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include "adapters/log.h"
#include "services/messaging/charges.h"
#include "services/messaging/lifecycle.h"
#include "services/messaging/protection.h"
#include "services/messaging/receipt_decision.h"
#include "services/messaging/undeliverable.h"
#include "topics/catalogue.h"
#include "topics/event_writer.h"

namespace smsgw::messaging {

ReceiptOutcome applyReceipt(soci::session& sql, const topics::CarrierReceipt& receipt,
                            const SendPolicy& policy, TimePoint now) {
  const ReceiptDecision decision = decideReceipt(receipt);
  const Move move = decision.move;
  const std::string& error_code = decision.error_code;
  soci::indicator error_ind = error_code.empty() ? soci::i_null : soci::i_ok;
  const Transition& transition = transitionOf(move);
  std::string next(toString(transition.to)), type(transition.event);
  // The message's id, account, to, from and mode are filled in by apply_carrier_receipt.
  auto event = topics::prepareEvent(
      {"", type, true, receiptEvent(move, receipt.status, receipt.errors, error_code)});
  std::string payload = receipt.toJson().dump(), topic(topics::kEvents.name), outcome;
  std::string at = formatIso(now);
  ChargedMessage message;
  std::string to;
  int live = 0;
  soci::indicator id_ind, account_ind, to_ind, live_ind, attempt_ind, cost_ind;
  // Takes the carrier id's lock before its first read (see receipts.h).
  sql << "SELECT outcome, message_id, account_id, to_number, live::int, send_attempt, cost_cents "
         "FROM apply_carrier_receipt(:cid, :next, :code, :receipt::jsonb, :event_id::uuid, "
         ":type, :record::jsonb, :topic, :now::timestamptz, NULLIF(:request, ''))",
      soci::use(receipt.carrier_message_id), soci::use(next), soci::use(error_code, error_ind),
      soci::use(payload), soci::use(event.id), soci::use(type), soci::use(event.record_json),
      soci::use(topic), soci::use(at), soci::use(RequestScope::current()), soci::into(outcome),
      soci::into(message.id, id_ind), soci::into(message.account_id, account_ind),
      soci::into(to, to_ind), soci::into(live, live_ind), soci::into(message.attempt, attempt_ind),
      soci::into(message.cost_cents, cost_ind);
  if (outcome == "UNCHANGED") return ReceiptOutcome::Unchanged;
  if (outcome == "HELD") return ReceiptOutcome::HeldEarly;
  ReceiptFollowUp follow_up = followUpOf(move, live);
  if (follow_up.refund) refundCharge(sql, message, "carrier could not send");
  if (follow_up.counts_against_destination) {
    recordCarrierFailure(sql, to, error_code, now);
    reviewDeliveryHealth(sql, message.account_id, policy);
  }
  return ReceiptOutcome::Applied;
}

void applyHeldReceipt(soci::session& sql, const std::string& carrier_message_id,
                      const SendPolicy& policy, TimePoint now) {
  std::string payload;
  sql << "DELETE FROM early_receipts WHERE carrier_message_id = :c RETURNING payload::text",
      soci::use(carrier_message_id), soci::into(payload);
  if (!sql.got_data()) return;
  spdlog::info("applying the receipt that arrived before the send result of {}",
               carrier_message_id);
  applyReceipt(sql, topics::CarrierReceipt::parse(payload), policy, now);
}

}  // namespace smsgw::messaging
