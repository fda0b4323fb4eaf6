#include "workers/sender/sender_handler.h"

#include "services/messaging/test_sends.h"
#include "topics/records.h"
#include "workers/sender/live_handoff.h"

namespace smsgw::workers {

topics::Outcome SenderHandler::operator()(const topics::Record& record) {
  auto sms = topics::OutboundSms::parse(record.payload);
  if (sms.mode == "TEST") {
    bool simulated = messaging::simulateTestSend(context_.db, sms.message_id);
    if (simulated) context_.relay.notify();
    return simulated ? topics::Outcome::done() : topics::Outcome::unchanged();
  }
  // A message not yet due is the queued sweep's to send: this record changed nothing.
  return handOffLive(context_, carrier_, hold_, policy_, sms.message_id, code_secret_) ==
                 HandoffOutcome::Settled
             ? topics::Outcome::done()
             : topics::Outcome::unchanged();
}

}  // namespace smsgw::workers
