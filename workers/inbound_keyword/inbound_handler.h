#pragma once
// Inbound-keyword worker handler (sms.inbound): a text a subscriber sent to an account number.
// In one transaction it stores the text as an INBOUND message (RECEIVED) with the inbound
// charge, acts on its first word (STOP and its kin record an opt-out for that number, START
// reinstates one, HELP is answered, YES confirms a double opt-in), queues the automatic reply,
// and raises message.received and the opt-out events. Over the account's inbound cap a text is
// stored without content, uncharged and not announced (STOP, START and HELP keep working).
// The carrier's message id is the natural key: a replayed record changes nothing.

#include "domain/send_policy.h"
#include "topics/consumer_loop.h"
#include "workers/runtime/run_worker.h"

namespace smsgw::workers {

class InboundHandler {
 public:
  explicit InboundHandler(WorkerContext& context, SendPolicy policy = {})
      : context_(context), policy_(policy) {}
  topics::Outcome operator()(const topics::Record& record);

 private:
  WorkerContext& context_;
  SendPolicy policy_;  // the opt-out rate that pauses sending
};

}  // namespace smsgw::workers
