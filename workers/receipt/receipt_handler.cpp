#include "workers/receipt/receipt_handler.h"

#include <spdlog/spdlog.h>

#include "services/messaging/receipts.h"
#include "topics/records.h"

namespace smsgw::workers {

topics::Outcome ReceiptHandler::operator()(const topics::Record& record) {
  auto receipt = topics::CarrierReceipt::parse(record.payload);
  auto outcome = messaging::applyReceipt(context_.db, receipt, policy_, context_.clock.now());
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
