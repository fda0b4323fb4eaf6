#include "services/messaging/receipts.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <numeric>

#include "adapters/log.h"
#include "db/procedures/apply_carrier_receipt.h"
#include "services/messaging/charges.h"
#include "services/messaging/in_doubt.h"
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
  const Transition& transition = transitionOf(move);
  // The message's id, account, to, from and mode are filled in by apply_carrier_receipt.
  auto event =
      topics::prepareEvent({"", std::string(transition.event), true,
                            receiptEvent(move, receipt.status, receipt.errors, error_code)});
  // Takes the carrier id's lock before its first read (see receipts.h).
  db::ReceiptApplied applied = db::applyCarrierReceipt(
      sql,
      {.carrier_message_id = receipt.carrier_message_id,
       .next_status = std::string(toString(transition.to)),
       .error_code = error_code.empty() ? std::nullopt : std::optional<std::string>(error_code),
       .receipt = receipt.toJson().dump(),
       .event_id = event.id,
       .event_type = std::string(transition.event),
       .event_record = event.record_json,
       .events_topic = std::string(topics::kEvents.name),
       .now = now,
       .request_id = RequestScope::current()});
  switch (applied.verdict) {
    case db::ReceiptVerdict::Unchanged:
      return ReceiptOutcome::Unchanged;
    case db::ReceiptVerdict::Held:
      // No message has its carrier id: it may name a send whose answer was lost, which it then
      // claims, applying itself as a receipt held for an acceptance (in_doubt.h).
      return claimInDoubtByReceipt(sql, receipt, policy, now) ? ReceiptOutcome::Applied
                                                              : ReceiptOutcome::HeldEarly;
    case db::ReceiptVerdict::Applied:
      break;
  }
  ChargedMessage message{applied.message_id, applied.account_id, applied.send_attempt,
                         applied.cost_cents};
  const std::string& to = applied.to_number;
  const bool live = applied.live;
  ReceiptFollowUp follow_up = followUpOf(move, live);
  if (follow_up.refund) refundCharge(sql, message, "carrier could not send");
  if (follow_up.counts_against_destination) {
    recordCarrierFailure(sql, to, error_code, now);
    reviewDeliveryHealth(sql, message.account_id, policy, now);
  }
  return ReceiptOutcome::Applied;
}

void applyHeldReceipt(soci::session& sql, const std::string& carrier_message_id,
                      const SendPolicy& policy, TimePoint now) {
  std::string payload;
  sql << "DELETE FROM early_receipts WHERE carrier_message_id = :carrier_id "
         "RETURNING payload::text",
      soci::use(carrier_message_id, "carrier_id"), soci::into(payload);
  if (!sql.got_data()) return;
  spdlog::info("applying the receipt that arrived before the send result of {}",
               carrier_message_id);
  applyReceipt(sql, topics::CarrierReceipt::parse(payload), policy, now);
}

ReceiptOutcome applyReceipt(db::Database& db, const topics::CarrierReceipt& receipt,
                            const SendPolicy& policy, TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  ReceiptOutcome outcome = applyReceipt(*sql, receipt, policy, now);
  tx.commit();
  return outcome;
}

std::vector<ReceiptOutcome> applyReceipts(db::Database& db,
                                          const std::vector<PolledReceipt>& polled,
                                          const SendPolicy& policy, TimePoint now) {
  std::vector<size_t> order(polled.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&polled](size_t a, size_t b) {
    return polled[a].receipt.carrier_message_id < polled[b].receipt.carrier_message_id;
  });
  std::vector<ReceiptOutcome> outcomes(polled.size(), ReceiptOutcome::Unchanged);
  db::Session sql(db);
  soci::transaction tx(*sql);
  for (size_t i : order) {
    RequestScope scope(polled[i].request_id);
    outcomes[i] = applyReceipt(*sql, polled[i].receipt, policy, now);
  }
  tx.commit();
  return outcomes;
}

}  // namespace smsgw::messaging
