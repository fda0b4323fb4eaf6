#include "workers/receipt/receipt_handler.h"

#include <spdlog/spdlog.h>

#include <memory>

#include "adapters/log.h"
#include "services/messaging/receipts.h"
#include "topics/records.h"

namespace smsgw::workers {

namespace {

topics::Outcome reported(const std::string& carrier_message_id, messaging::ReceiptOutcome outcome) {
  if (outcome == messaging::ReceiptOutcome::Unchanged) {
    spdlog::info("receipt for {} changes nothing (not final, or already final)",
                 carrier_message_id);
  } else if (outcome == messaging::ReceiptOutcome::HeldEarly) {
    spdlog::info("receipt for {} arrived before the send result; held", carrier_message_id);
  }
  return outcome == messaging::ReceiptOutcome::Unchanged ? topics::Outcome::unchanged()
                                                         : topics::Outcome::done();
}

}  // namespace

topics::Outcome ReceiptHandler::operator()(const topics::Record& record) {
  auto receipt = topics::CarrierReceipt::parse(record.payload);
  auto outcome = messaging::applyReceipt(context_.db, receipt, policy_, context_.clock.now());
  context_.relay.notify();
  return reported(receipt.carrier_message_id, outcome);
}

std::vector<topics::Outcome> ReceiptHandler::applyBatch(
    const std::vector<topics::Record>& records) {
  std::vector<messaging::PolledReceipt> polled;
  polled.reserve(records.size());
  for (const auto& record : records) {
    // A payload that does not parse throws here, before anything is written: the loop then
    // handles the records one by one and sets that one aside alone.
    polled.push_back({topics::CarrierReceipt::parse(record.payload), topics::requestIdOf(record)});
  }
  auto outcomes = messaging::applyReceipts(context_.db, polled, policy_, context_.clock.now());
  context_.relay.notify();
  std::vector<topics::Outcome> results;
  results.reserve(outcomes.size());
  for (size_t i = 0; i < outcomes.size(); ++i) {
    RequestScope scope(polled[i].request_id);
    results.push_back(reported(polled[i].receipt.carrier_message_id, outcomes[i]));
  }
  return results;
}

topics::ConsumerHandlers receiptHandlers(WorkerContext& context, SendPolicy policy) {
  auto handler = std::make_shared<ReceiptHandler>(context, policy);
  return {[handler](const topics::Record& record) { return (*handler)(record); },
          [handler](const std::vector<topics::Record>& records) {
            return handler->applyBatch(records);
          }};
}

}  // namespace smsgw::workers
