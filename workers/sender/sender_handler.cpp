#include "workers/sender/sender_handler.h"

#include "adapters/log.h"
#include "services/messaging/test_sends.h"
#include "topics/records.h"
#include "workers/sender/live_handoff.h"

namespace smsgw::workers {

namespace {

topics::Outcome outcomeOf(HandoffOutcome outcome) {
  // A message not yet due is the queued sweep's to send: this record changed nothing.
  return outcome == HandoffOutcome::Settled ? topics::Outcome::done()
                                            : topics::Outcome::unchanged();
}

}  // namespace

std::vector<topics::Outcome> SenderHandler::applyBatch(const std::vector<topics::Record>& records) {
  std::vector<topics::Outcome> outcomes;
  outcomes.reserve(records.size());
  std::vector<messaging::CarrierAnswer> answers;
  try {
    for (const auto& record : records) {
      RequestScope scope(topics::requestIdOf(record));
      auto sms = topics::OutboundSms::parse(record.payload);
      if (sms.mode == "TEST") {
        outcomes.push_back((*this)(record));
        continue;
      }
      auto call = callCarrier(context_, carrier_, hold_, policy_, sms.message_id, code_secret_);
      if (call.answer) answers.push_back(std::move(*call.answer));
      outcomes.push_back(outcomeOf(call.outcome));
    }
  } catch (...) {
    // The calls made so far are recorded before the loop retries the batch one by one.
    recordAnswers(context_, policy_, answers);
    throw;
  }
  recordAnswers(context_, policy_, answers);
  return outcomes;
}

topics::ConsumerHandlers senderHandlers(const std::shared_ptr<SenderHandler>& handler) {
  return {[handler](const topics::Record& record) { return (*handler)(record); },
          [handler](const std::vector<topics::Record>& records) {
            return handler->applyBatch(records);
          }};
}

topics::Outcome SenderHandler::operator()(const topics::Record& record) {
  auto sms = topics::OutboundSms::parse(record.payload);
  if (sms.mode == "TEST") {
    bool simulated = messaging::simulateTestSend(context_.db, sms.message_id, context_.clock.now());
    if (simulated) context_.relay.notify();
    return simulated ? topics::Outcome::done() : topics::Outcome::unchanged();
  }
  return outcomeOf(handOffLive(context_, carrier_, hold_, policy_, sms.message_id, code_secret_));
}

}  // namespace smsgw::workers
