#pragma once
// Sender worker handler: takes a queued message from sms.outbound to the carrier. LIVE
// messages are handed off at most once (live_handoff.h) when their pacing slot has come and the
// carrier has not asked us to wait, else left to the queued sweep; TEST messages are simulated
// (services/messaging/test_sends.h). Idempotent: the QUEUED guards make a replayed record a no-op.
// The records of one poll are handed off one after another and the carrier's answers recorded
// together, in one transaction (applyBatch).

#include <memory>
#include <string>
#include <vector>

#include "domain/carrier_client.h"
#include "domain/carrier_hold.h"
#include "domain/send_policy.h"
#include "topics/consumer_loop.h"
#include "workers/runtime/run_worker.h"

namespace smsgw::workers {

class SenderHandler {
 public:
  // `code_secret`: VERIFICATION_CODE_SECRET, which opens verification codes' sealed texts.
  // `hold`: the process's one, shared with its other loops and its sweep.
  SenderHandler(WorkerContext& context, CarrierClient& carrier, CarrierHold& hold,
                SendPolicy policy = {}, std::string code_secret = "")
      : context_(context),
        carrier_(carrier),
        hold_(hold),
        policy_(policy),
        code_secret_(std::move(code_secret)) {}
  topics::Outcome operator()(const topics::Record& record);
  // Throws only before its first carrier call, or after recording every answer it got: the
  // consume loop then hands the records off one by one, and those already settled change
  // nothing.
  std::vector<topics::Outcome> applyBatch(const std::vector<topics::Record>& records);

 private:
  WorkerContext& context_;
  CarrierClient& carrier_;
  CarrierHold& hold_;
  SendPolicy policy_;
  std::string code_secret_;
};

// Both, sharing one handler, for the consume loop.
topics::ConsumerHandlers senderHandlers(const std::shared_ptr<SenderHandler>& handler);

}  // namespace smsgw::workers
