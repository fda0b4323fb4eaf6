#include "workers/sender/live_handoff.h"

#include <spdlog/spdlog.h>

#include "services/messaging/handoffs.h"
#include "services/verifications/verifications.h"
#include "workers/runtime/retries.h"

namespace smsgw::workers {
namespace {

HandoffOutcome outcomeOf(messaging::ClaimOutcome claim) {
  return claim == messaging::ClaimOutcome::NotDue ? HandoffOutcome::NotDue
                                                  : HandoffOutcome::NotOurs;
}

}  // namespace

HandoffOutcome handOffLive(WorkerContext& context, CarrierClient& carrier, CarrierHold& hold,
                           const SendPolicy& policy, const std::string& message_id,
                           const std::string& code_secret) {
  if (auto until = hold.heldUntil(context.clock.now())) {
    messaging::deferHandoff(context.db, message_id, *until);
    return HandoffOutcome::NotDue;
  }
  auto claim = messaging::claimHandoff(context.db, message_id, policy.stale_handoff_seconds,
                                       context.clock.now());
  if (!claim.message) {
    context.relay.notify();
    return outcomeOf(claim.outcome);
  }
  messaging::OutgoingMessage& message = *claim.message;
  if (message.verification) {
    auto text = verifications::verificationText(context.db, code_secret, message_id);
    if (!text) {
      spdlog::error("verification message {}: its code cannot be opened; not sent", message_id);
      messaging::failStaleHandoff(context.db, message_id, context.clock.now());
      context.relay.notify();
      return HandoffOutcome::Settled;
    }
    message.body = std::move(*text);
  }
  CarrierSendResult result = carrier.sendMessage(message.from, message.to, message.body);
  if (result.kind != CarrierSendResult::Kind::Accepted) {
    spdlog::warn("carrier did not take {}: {} {}", message_id, result.error_code,
                 result.error_detail);
  }
  if (result.kind == CarrierSendResult::Kind::Throttled) {
    hold.holdFor(context.clock.now(), result.retry_after);
    spdlog::warn("carrier asked us to wait {} s: hand-offs held", result.retry_after.count());
  }
  messaging::HandoffDecision decision =
      messaging::decideHandoff(result, message.charge.cost_cents, message.part_price_cents);
  const TimePoint now = context.clock.now();
  // The carrier's answer exists only in this process until it is recorded: given up, the
  // hand-off would end STALE_QUEUED (refunded) although the text went out. A retry after a
  // commit whose outcome was lost finds the message no longer QUEUED and changes nothing.
  withRetries("recording the carrier's answer", 4, [&] {
    if (message.verification) {
      verifications::recordCodeCarrierAnswer(context.db, message, result, decision, policy, now);
    } else {
      messaging::recordCarrierAnswer(context.db, message, result, decision, policy, now);
    }
  });
  context.relay.notify();
  return HandoffOutcome::Settled;
}

}  // namespace smsgw::workers
