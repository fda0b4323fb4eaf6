#include "workers/sender/sender_handler.h"

#include "topics/records.h"
#include "workers/sender/live_handoff.h"
#include "workers/sender/test_simulation.h"

namespace smsgw::workers {

topics::Outcome SenderHandler::operator()(const topics::Record& record) {
  auto sms = topics::OutboundSms::parse(record.payload);
  if (sms.mode == "TEST") {
    return simulateTestSend(context_, sms.message_id) ? topics::Outcome::done()
                                                      : topics::Outcome::unchanged();
  }
  // A message not yet due is the queued sweep's to send: this record changed nothing.
  return handOffLive(context_, carrier_, hold_, policy_, sms.message_id, code_secret_) ==
                 HandoffOutcome::Settled
             ? topics::Outcome::done()
             : topics::Outcome::unchanged();
}

}  // namespace smsgw::workers
