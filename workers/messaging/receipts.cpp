#include "workers/messaging/receipts.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include "topics/event_writer.h"
#include "workers/messaging/charges.h"
#include "workers/messaging/protection.h"
#include "workers/messaging/undeliverable.h"

namespace smsgw::workers {
namespace {

struct Transition {
  const char* next_status;
  const char* event;
};

std::optional<Transition> transitionFor(const std::string& carrier_status) {
  if (carrier_status == "delivered") return Transition{"DELIVERED", "message.delivered"};
  if (carrier_status == "delivery_failed" || carrier_status == "expired") {
    return Transition{"UNDELIVERED", "message.undelivered"};
  }
  if (carrier_status == "sending_failed") return Transition{"FAILED", "message.failed"};
  if (carrier_status == "sending") return std::nullopt;  // not final: nothing to record yet
  throw topics::PermanentError("unknown carrier status " + carrier_status);
}

struct Settled {
  std::string id, account, from, to, mode;
  int attempt = 1;
  long long cost = 0;
};

void holdEarly(soci::session& sql, const topics::CarrierReceipt& receipt) {
  std::string payload = receipt.toJson().dump();
  sql << "INSERT INTO early_receipts (carrier_message_id, payload) VALUES (:c, :p::jsonb) "
         "ON CONFLICT DO NOTHING",
      soci::use(receipt.carrier_message_id), soci::use(payload);
}

}  // namespace

void lockCarrierMessage(soci::session& sql, const std::string& carrier_message_id) {
  sql << "SELECT lock_carrier_message(:cid)", soci::use(carrier_message_id);
}

ReceiptOutcome applyReceipt(soci::session& sql, const topics::CarrierReceipt& receipt,
                            const SendPolicy& policy) {
  auto transition = transitionFor(receipt.status);
  if (!transition) return ReceiptOutcome::Unchanged;
  // Taken before the first read, so that read's snapshot already holds whatever the sender
  // committed for this carrier id (see lockCarrierMessage in receipts.h).
  lockCarrierMessage(sql, receipt.carrier_message_id);

  std::string error_code;
  if (!receipt.errors.empty()) error_code = receipt.errors[0].value("code", "");
  soci::indicator error_ind = error_code.empty() ? soci::i_null : soci::i_ok;
  std::string next(transition->next_status);
  Settled m;
  sql << "UPDATE messages SET status = :next, error_code = :code, updated_at = now(), "
         "delivered_at = CASE WHEN :next2 = 'DELIVERED' THEN now() ELSE delivered_at END "
         "WHERE carrier_message_id = :cid AND status IN ('SENDING', 'SENT') "
         "RETURNING id, account_id, from_number, to_number, mode, send_attempt, cost_cents",
      soci::use(next), soci::use(error_code, error_ind), soci::use(next),
      soci::use(receipt.carrier_message_id), soci::into(m.id), soci::into(m.account),
      soci::into(m.from), soci::into(m.to), soci::into(m.mode), soci::into(m.attempt),
      soci::into(m.cost);
  if (!sql.got_data()) {
    int known = 0;
    sql << "SELECT count(*) FROM messages WHERE carrier_message_id = :cid",
        soci::use(receipt.carrier_message_id), soci::into(known);
    if (known) return ReceiptOutcome::Unchanged;  // late or repeated: already final
    holdEarly(sql, receipt);
    return ReceiptOutcome::HeldEarly;
  }
  bool live = m.mode == "LIVE";
  if (next == "FAILED" && live) {
    refundCharge(sql, {m.id, m.account, m.attempt, m.cost}, "carrier could not send");
  }
  if (live && next == "DELIVERED") recordCarrierDelivery(sql, m.to);
  if (live && next != "DELIVERED") recordCarrierFailure(sql, m.to, error_code);
  nlohmann::json data = {{"message_id", m.id},     {"status", receipt.status},
                         {"message_status", next}, {"to", m.to},
                         {"from", m.from},         {"errors", receipt.errors}};
  if (next == "FAILED")
    data["error_code"] = error_code.empty() ? nlohmann::json(nullptr) : nlohmann::json(error_code);
  topics::raiseEvent(sql, {m.account, transition->event, live, data});
  if (live && next != "DELIVERED") reviewDeliveryHealth(sql, m.account, policy);
  return ReceiptOutcome::Applied;
}

void applyHeldReceipt(soci::session& sql, const std::string& carrier_message_id,
                      const SendPolicy& policy) {
  std::string payload;
  sql << "DELETE FROM early_receipts WHERE carrier_message_id = :c RETURNING payload::text",
      soci::use(carrier_message_id), soci::into(payload);
  if (!sql.got_data()) return;
  spdlog::info("applying the receipt that arrived before the send result of {}",
               carrier_message_id);
  applyReceipt(sql, topics::CarrierReceipt::parse(payload), policy);
}

}  // namespace smsgw::workers
