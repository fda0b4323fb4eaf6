#include "workers/receipt/receipt_handler.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include "db/ledger.h"
#include "topics/event_writer.h"
#include "topics/records.h"

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

}  // namespace

void ReceiptHandler::operator()(const topics::Record& record) {
  auto receipt = topics::CarrierReceipt::parse(record.payload);
  auto transition = transitionFor(receipt.status);
  if (!transition) return;

  std::string error_code;
  if (!receipt.errors.empty()) error_code = receipt.errors[0].value("code", "");
  soci::indicator error_ind = error_code.empty() ? soci::i_null : soci::i_ok;
  std::string next(transition->next_status);

  db::Session sql(context_.db);
  soci::transaction tx(*sql);
  std::string id, account, from, to, mode;
  long long cost = 0;
  *sql << "UPDATE messages SET status = :next, error_code = :code, updated_at = now(), "
          "delivered_at = CASE WHEN :next2 = 'DELIVERED' THEN now() ELSE delivered_at END "
          "WHERE carrier_message_id = :cid AND status IN ('QUEUED', 'SENDING', 'SENT') "
          "RETURNING id, account_id, from_number, to_number, mode, cost_cents",
      soci::use(next), soci::use(error_code, error_ind), soci::use(next),
      soci::use(receipt.carrier_message_id), soci::into(id), soci::into(account), soci::into(from),
      soci::into(to), soci::into(mode), soci::into(cost);
  if (!sql->got_data()) {
    spdlog::info("receipt for {} changes nothing (unknown or already final)",
                 receipt.carrier_message_id);
    return;
  }
  bool live = mode == "LIVE";
  if (next == "FAILED" && live && cost > 0) {
    db::postLedgerEntry(*sql, {account, cost, "sms_refund", id, "Refund: carrier could not send"});
    *sql << "UPDATE messages SET cost_cents = 0 WHERE id = :id", soci::use(id);
  }
  nlohmann::json data = {{"message_id", id},       {"status", receipt.status},
                         {"message_status", next}, {"to", to},
                         {"from", from},           {"errors", receipt.errors}};
  if (next == "FAILED")
    data["error_code"] = error_code.empty() ? nlohmann::json(nullptr) : nlohmann::json(error_code);
  topics::raiseEvent(*sql, {account, transition->event, live, data});
  tx.commit();
  context_.relay.notify();
}

}  // namespace smsgw::workers
