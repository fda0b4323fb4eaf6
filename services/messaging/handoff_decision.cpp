#include "services/messaging/handoff_decision.h"

#include "domain/carrier_hold.h"
#include "domain/destinations.h"
#include "domain/phone.h"

namespace smsgw::messaging {
namespace {

constexpr const char* kSimulatedUndeliveredCode = "30003";

// A send that never reached the carrier (no connection, its name not resolved) is tried again
// this soon: a blip of the network, or of a container engine's DNS while a container restarts,
// must not fail a customer's text that was never sent.
constexpr std::chrono::seconds kUnreachableRetry{2};

ErrorCode failureCode(CarrierSendResult::Kind kind) {
  switch (kind) {
    case CarrierSendResult::Kind::Refused:
    case CarrierSendResult::Kind::OptedOutAtCarrier:
      return ErrorCode::CARRIER_ERROR;
    case CarrierSendResult::Kind::InDoubt:
      return ErrorCode::CARRIER_TIMEOUT;  // never retried: the carrier may have sent it
    case CarrierSendResult::Kind::Throttled:
      return ErrorCode::CARRIER_THROTTLED;  // safe to resend
    case CarrierSendResult::Kind::Unavailable:
    case CarrierSendResult::Kind::Accepted:
      break;
  }
  return ErrorCode::CARRIER_UNAVAILABLE;
}

}  // namespace

UnclaimedVerdict judgeUnclaimed(bool found, bool queued, bool started, bool stale) {
  if (!found || !queued) return UnclaimedVerdict::Settled;
  if (!started) return UnclaimedVerdict::NotDue;
  if (!stale) return UnclaimedVerdict::InProgressElsewhere;
  return UnclaimedVerdict::Interrupted;
}

HandoffDecision decideHandoff(const CarrierSendResult& result, long long charged_cents,
                              int part_price_cents) {
  HandoffDecision decision;
  decision.move = Move::CarrierAccepted;
  if (result.kind == CarrierSendResult::Kind::Accepted) {
    if (part_price_cents <= 0) {  // a flat price (a verification) or none: it stands
      decision.settled_cents = charged_cents;
      return decision;
    }
    decision.settled_cents = static_cast<long long>(part_price_cents) * result.parts;
    decision.adjustment_cents = charged_cents > 0 ? charged_cents - decision.settled_cents : 0;
    return decision;
  }
  decision.move = Move::CarrierRefused;
  decision.failure = failureCode(result.kind);
  decision.error_message = std::string(errorInfo(decision.failure).message_en);
  if (result.kind == CarrierSendResult::Kind::OptedOutAtCarrier) {
    decision.error_message +=
        " The recipient opted out at the carrier (carrier " + result.error_code + ").";
  } else if (!result.error_code.empty()) {
    decision.error_message += " (carrier " + result.error_code + ")";
  }
  // Only the carrier's judgement of the destination counts toward UNDELIVERABLE_NUMBER. An
  // opt-out the carrier keeps may come from a STOP another customer received (its block rules
  // reach a whole profile or account): counting it would shut this customer out for 90 days.
  decision.counts_against_destination = result.kind == CarrierSendResult::Kind::Refused;
  decision.opted_out_at_carrier = result.kind == CarrierSendResult::Kind::OptedOutAtCarrier;
  decision.in_doubt = result.kind == CarrierSendResult::Kind::InDoubt;
  if (result.kind == CarrierSendResult::Kind::Throttled) {
    decision.requeue = true;
    decision.requeue_after = CarrierHold::waitFor(result.retry_after);
  } else if (result.kind == CarrierSendResult::Kind::Unavailable) {
    decision.requeue = true;
    decision.requeue_after = kUnreachableRetry;
  }
  return decision;
}

SimulatedHandoff simulateHandoff(const std::string& message_id, const std::string& to) {
  auto number = E164::parse(to);
  auto magic = number ? testDestination(*number) : TestDestination::None;
  if (magic == TestDestination::CarrierRefusal) {
    return {Move::CarrierRefused, ErrorCode::CARRIER_ERROR,
            std::string("The carrier refused the message. (carrier ") + kSimulatedRefusalCode +
                ", simulated)",
            std::nullopt};
  }
  topics::CarrierReceipt receipt{"sim_" + message_id, "delivered"};
  if (magic == TestDestination::Undelivered) {
    receipt.status = "delivery_failed";
    receipt.errors = nlohmann::json::array({{{"code", kSimulatedUndeliveredCode},
                                             {"title", "Unreachable destination handset"},
                                             {"detail", "Simulated in TEST mode."}}});
  }
  return {Move::CarrierAccepted, ErrorCode::CARRIER_ERROR, "", receipt};
}

}  // namespace smsgw::messaging
