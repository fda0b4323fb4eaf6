#include "workers/receipt/receipt_handler.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include "services/messaging/receipts.h"
#include "topics/records.h"

namespace smsgw::workers {

topics::Outcome ReceiptHandler::operator()(const topics::Record& record) {
  auto receipt = topics::CarrierReceipt::parse(record.payload);
  db::Session sql(context_.db);
  soci::transaction tx(*sql);
  auto outcome = messaging::applyReceipt(*sql, receipt, policy_, context_.clock.now());
  tx.commit();
  if (outcome == messaging::ReceiptOutcome::Unchanged) {
    spdlog::info("receipt for {} changes nothing (not final, or already final)",
                 receipt.carrier_message_id);
  } else if (outcome == messaging::ReceiptOutcome::HeldEarly) {
    spdlog::info("receipt for {} arrived before the send result; held", receipt.carrier_message_id);
  }
  context_.relay.notify();
  return outcome == messaging::ReceiptOutcome::Unchanged ? topics::Outcome::unchanged()
                                                         : topics::Outcome::done();
}

}  // namespace smsgw::workers
