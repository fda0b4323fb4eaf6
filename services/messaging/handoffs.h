#pragma once
// The writes of a LIVE hand-off to the carrier, at most once (pipeline rule 4): the claim
// records that the hand-off starts just before the carrier is called, and the carrier's answer
// settles the message once. A message found QUEUED with a hand-off started long ago (the sender
// died mid-call) becomes FAILED STALE_QUEUED, refunded, and is never sent again: a handset gets
// a text at most once. The sender (workers/sender) calls the carrier between these steps; every
// status they write comes from the transition table (lifecycle.h).

#include <soci/session.h>

#include <optional>
#include <string>
#include <vector>

#include "db/database.h"
#include "domain/carrier_client.h"
#include "domain/clock.h"
#include "domain/send_policy.h"
#include "services/messaging/charges.h"
#include "services/messaging/handoff_decision.h"

namespace smsgw::messaging {

// A claimed message: what the carrier call needs.
struct OutgoingMessage {
  ChargedMessage charge;
  std::string from, to, body;
  int part_price_cents = 0;
  bool verification = false;  // no body: a verification code, texted from its sealed copy
};

enum class ClaimOutcome {
  Claimed,  // ours to hand over now: the hand-off is on record, committed
  Settled,  // no longer QUEUED (a replay), or just failed STALE_QUEUED: nothing to send
  NotDue,   // its pacing slot comes later: the queued sweep hands it over
};

struct HandoffClaim {
  ClaimOutcome outcome = ClaimOutcome::Settled;
  std::optional<OutgoingMessage> message;  // when Claimed
};

// Throws topics::RetryableError while another sender is calling the carrier for it (a
// rebalance handed us its record): the record is tried again later.
HandoffClaim claimHandoff(db::Database& db, const std::string& message_id, int stale_after_seconds,
                          TimePoint now);

// The carrier's answer, in the caller's transaction: SENDING with message.sent (a receipt that
// came first applied after it); QUEUED again for the end of the carrier's window when it
// throttled the send (accepted less than policy.throttled_requeue_seconds ago), still charged;
// in doubt when the carrier may have taken it (in_doubt.h), still charged; or FAILED with
// message.failed form (a), refunded, counted against the destination when the carrier judged it.
// Nothing when no longer QUEUED (a retry after a commit whose outcome was lost).
void recordCarrierAnswer(soci::session& sql, const OutgoingMessage& message,
                         const CarrierSendResult& result, const HandoffDecision& decision,
                         const SendPolicy& policy, TimePoint now);
// The same in a transaction of its own.
void recordCarrierAnswer(db::Database& db, const OutgoingMessage& message,
                         const CarrierSendResult& result, const HandoffDecision& decision,
                         const SendPolicy& policy, TimePoint now);

// A carrier's answer to a claimed message, to be recorded, with the request it belongs to.
struct CarrierAnswer {
  OutgoingMessage message;
  CarrierSendResult result;
  HandoffDecision decision;
  std::string request_id;
};

// The answers of several calls (the sender's batch) in one transaction, each as
// recordCarrierAnswer, one commit for all; all or nothing (it throws). Taken in the order of
// their carrier ids, as applyReceipts takes receipts (receipts.h): the sender and the receipt
// worker lock carrier ids in one order.
void recordCarrierAnswers(db::Database& db, const std::vector<CarrierAnswer>& answers,
                          const SendPolicy& policy, TimePoint now);

// FAILED STALE_QUEUED (message.failed form c), refunded; nothing when no longer QUEUED.
void failStaleHandoff(soci::session& sql, const std::string& message_id, TimePoint now);
void failStaleHandoff(db::Database& db, const std::string& message_id, TimePoint now);

// A message due while the carrier asked us to wait moves to the hold's end (deferral.h).
void deferHandoff(db::Database& db, const std::string& message_id, TimePoint until);

// Paced LIVE messages whose slot has come, oldest slot first, at most `batch`: a message whose
// slot was still to come when it was accepted (send_at after created_at) is the queued sweep's
// to send once due, since the consumer acknowledged its record as not due. Any other message is
// the consumer's; sweeping those too would race the consumer for every send.
std::vector<std::string> pacedMessagesDue(db::Database& db, TimePoint now, int batch);

}  // namespace smsgw::messaging
