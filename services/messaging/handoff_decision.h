#pragma once
// What the sender decides, apart from what it reads and writes: pure functions the shells
// (handoffs.cpp, test_sends.cpp) call with what they read, unit-tested in
// tests/unit/sender_decision_test.cpp.

#include <chrono>
#include <optional>
#include <string>

#include "domain/carrier_client.h"
#include "domain/clock.h"
#include "domain/errors.h"
#include "services/messaging/lifecycle.h"
#include "topics/records.h"

namespace smsgw::messaging {

// A LIVE message the claim did not take, from handoff_state's answer.
enum class UnclaimedVerdict {
  Settled,              // no longer QUEUED (or gone): a replay, nothing to do
  NotDue,               // its pacing slot comes later: the queued sweep hands it over
  InProgressElsewhere,  // another sender is calling the carrier now: retry the record later
  Interrupted,          // a hand-off started long ago never ended: FAILED STALE_QUEUED
};
UnclaimedVerdict judgeUnclaimed(bool found, bool queued, bool started, bool stale);

// How the carrier's answer settles a claimed LIVE message.
struct HandoffDecision {
  Move move = Move::CarrierAccepted;  // or CarrierRefused
  // Refused: the failure code and the text the message keeps (the carrier's code appended).
  ErrorCode failure = ErrorCode::CARRIER_UNAVAILABLE;
  std::string error_message;
  // Refused by the carrier's judgement of the destination: counts toward undeliverable.
  bool counts_against_destination = false;
  // Refused by the carrier's own opt-out handling, which the operator should have had turned
  // off (docs/carrier.md): counted and logged by the caller.
  bool opted_out_at_carrier = false;
  // Throttled, or the carrier not reached (it surely did not send it): back in the queue until
  // the carrier's window resets (2 s when unreached), still charged; `failure` stands when it
  // has waited too long already (THROTTLED_REQUEUE_SECONDS after its acceptance).
  // In doubt (the carrier may have sent it): kept QUEUED and charged until its receipt settles
  // it or the in-doubt deadline fails it with `failure` (in_doubt.h).
  bool in_doubt = false;
  bool requeue = false;
  std::chrono::seconds requeue_after{0};  // from the carrier's answer (CarrierHold::waitFor)
  TimePoint requeue_until{};              // set by the caller, who knows when it answered
  // Accepted: what the carrier's part count costs, and the charge moved to match it
  // (positive gives back, negative takes more; 0 for a message that cost nothing, and for one
  // of a flat price, part_price_cents 0: a verification's charge stands whatever the parts).
  long long settled_cents = 0;
  long long adjustment_cents = 0;
};
HandoffDecision decideHandoff(const CarrierSendResult& result, long long charged_cents,
                              int part_price_cents);

// A TEST message's simulated hand-off (spec "Test mode"): refused for the magic refusal
// number, otherwise taken, with the receipt the simulated carrier will send.
struct SimulatedHandoff {
  Move move;
  ErrorCode failure = ErrorCode::CARRIER_ERROR;  // refused: its code and the text it keeps
  std::string error_message;
  std::optional<topics::CarrierReceipt> receipt;
};
SimulatedHandoff simulateHandoff(const std::string& message_id, const std::string& to);

// The carrier code a simulated refusal carries.
inline constexpr const char* kSimulatedRefusalCode = "40008";

}  // namespace smsgw::messaging
