#include "workers/sender/live_handoff.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include <optional>

#include "adapters/log.h"
#include "db/procedures/record_carrier_acceptance.h"
#include "domain/errors.h"
#include "services/messaging/charges.h"
#include "services/messaging/deferral.h"
#include "services/messaging/lifecycle.h"
#include "services/messaging/protection.h"
#include "services/messaging/receipts.h"
#include "services/messaging/still_queued.h"
#include "services/messaging/undeliverable.h"
#include "services/verifications/verifications.h"
#include "topics/catalogue.h"
#include "topics/event_writer.h"
#include "topics/records.h"
#include "workers/runtime/retries.h"
#include "workers/sender/handoff_decision.h"

namespace smsgw::workers {
namespace {

struct Outgoing {
  messaging::ChargedMessage charge;
  std::string from, to, body;
  int part_price_cents = 0;
  bool verification = false;  // no body: a verification code, texted from its sealed copy
};

struct Claim {
  std::optional<Outgoing> message;
  HandoffOutcome otherwise = HandoffOutcome::NotOurs;
};

// Records that the hand-off starts now; nothing when it is not ours to send (yet).
Claim claim(db::Database& db, const std::string& id, int stale_after_seconds, TimePoint now) {
  db::Session sql(db);
  Outgoing message;
  message.charge.id = id;
  soci::indicator body_ind = soci::i_null;
  std::string at = formatIso(now);
  *sql << "SELECT * FROM claim_handoff(:id, :now::timestamptz)", soci::use(id), soci::use(at),
      soci::into(message.charge.account_id), soci::into(message.from), soci::into(message.to),
      soci::into(message.body, body_ind), soci::into(message.charge.cost_cents),
      soci::into(message.charge.attempt), soci::into(message.part_price_cents);
  // One statement, committed on its own: the hand-off is on record before the carrier is called.
  if (sql->got_data()) {
    message.verification = body_ind != soci::i_ok;
    return {message};
  }
  soci::transaction tx(*sql);
  int queued = 0, started = 0, stale = 0;
  *sql << "SELECT * FROM handoff_state(:id, :stale_seconds, :now::timestamptz)", soci::use(id),
      soci::use(stale_after_seconds), soci::use(at), soci::into(queued), soci::into(started),
      soci::into(stale);
  switch (judgeUnclaimed(sql->got_data(), queued, started, stale)) {
    case UnclaimedVerdict::Settled:
      return {};
    case UnclaimedVerdict::NotDue:
      return {{}, HandoffOutcome::NotDue};
    case UnclaimedVerdict::InProgressElsewhere:
      // A rebalance handed us the record of a message another sender is handing over now.
      throw topics::RetryableError("hand-off of " + id + " in progress elsewhere");
    case UnclaimedVerdict::Interrupted:
      break;
  }
  failStaleHandoff(*sql, id, now);
  tx.commit();
  return {};
}

// SENDING, the charge settled on the parts the carrier counted (more when the balance covers
// them, otherwise the accepted charge stands), message.sent, and a receipt that came first
// applied after it: record_carrier_acceptance (db/migrations/0008) in one round trip.
void accepted(soci::session& sql, const Outgoing& message, const CarrierSendResult& result,
              const HandoffDecision& decision, const SendPolicy& policy, TimePoint now) {
  const messaging::ChargedMessage& charge = message.charge;
  int parts = result.parts;
  long long settled = decision.settled_cents, adjustment = decision.adjustment_cents;
  auto event = topics::prepareEvent(
      {charge.account_id, std::string(messaging::transitionOf(decision.move).event), true,
       messaging::sentEvent({charge.id, message.from, message.to}, result.carrier_message_id, parts,
                            settled)});
  auto recorded = db::recordCarrierAcceptance(
      sql, {.message_id = charge.id,
            .carrier_message_id = result.carrier_message_id,
            .parts = parts,
            .adjustment_cents = adjustment,
            .charge_reference = messaging::chargeReference(charge.id, charge.attempt),
            .adjustment_description = "Carrier counted " + std::to_string(parts) + " parts",
            .event_id = event.id,
            .event_record = event.record_json,
            .events_topic = std::string(topics::kEvents.name),
            .now = now,
            .request_id = RequestScope::current()});
  if (!recorded) return;  // no longer QUEUED: a replay
  if (adjustment != 0 && recorded->cost_cents != settled) {
    spdlog::warn("message {}: carrier counted {} parts; the balance does not cover the difference",
                 charge.id, parts);
  }
  if (recorded->receipt_held)
    messaging::applyHeldReceipt(sql, result.carrier_message_id, policy, now);
}

// FAILED at hand-off (message.failed form a), refunded.
void failed(soci::session& sql, const Outgoing& message, const HandoffDecision& decision,
            const CarrierSendResult& result, const SendPolicy& policy, TimePoint now) {
  std::string code(errorInfo(decision.failure).name), text = decision.error_message;
  std::string at = formatIso(now);
  const auto& move = messaging::transitionOf(decision.move);
  std::string status(messaging::toString(move.to)), updated;
  sql << std::string(
             "UPDATE messages SET status = :s, error_code = :c, error_message = "
             ":m, updated_at = :now::timestamptz WHERE id = :id AND ") +
             messaging::kStillQueued + " RETURNING id",
      soci::use(status), soci::use(code), soci::use(text), soci::use(at),
      soci::use(message.charge.id), soci::into(updated);
  if (!sql.got_data()) return;
  messaging::refundCharge(sql, message.charge, "the carrier did not take the message");
  topics::raiseEvent(sql,
                     {message.charge.account_id, std::string(move.event), true,
                      messaging::handoffFailedEvent({message.charge.id, message.from, message.to},
                                                    decision.failure, text)});
  if (decision.counts_against_destination) {
    messaging::recordCarrierFailure(sql, message.to, result.error_code, now);
    messaging::reviewDeliveryHealth(sql, message.charge.account_id, policy);
  }
}

}  // namespace

void failStaleHandoff(soci::session& sql, const std::string& id, TimePoint now) {
  messaging::ChargedMessage message;
  message.id = id;
  const auto& move = messaging::transitionOf(messaging::Move::HandoffInterrupted);
  std::string status(messaging::toString(move.to));
  std::string code(errorInfo(ErrorCode::STALE_QUEUED).name);
  std::string text(errorInfo(ErrorCode::STALE_QUEUED).message_en), at = formatIso(now);
  sql << std::string(
             "UPDATE messages SET status = :s, error_code = :c, error_message = :m, "
             "updated_at = :now::timestamptz WHERE id = :id AND ") +
             messaging::kStillQueued + " RETURNING account_id, cost_cents, send_attempt",
      soci::use(status), soci::use(code), soci::use(text), soci::use(at), soci::use(id),
      soci::into(message.account_id), soci::into(message.cost_cents), soci::into(message.attempt);
  if (!sql.got_data()) return;
  messaging::refundCharge(sql, message, "sending interrupted");
  topics::raiseEvent(
      sql, {message.account_id, std::string(move.event), true, messaging::interruptedEvent(id)});
}

HandoffOutcome handOffLive(WorkerContext& context, CarrierClient& carrier, CarrierHold& hold,
                           const SendPolicy& policy, const std::string& message_id,
                           const std::string& code_secret) {
  if (auto until = hold.heldUntil(context.clock.now())) {
    db::Session sql(context.db);
    messaging::deferHandoff(*sql, message_id, *until);
    return HandoffOutcome::NotDue;
  }
  auto claimed = claim(context.db, message_id, policy.stale_handoff_seconds, context.clock.now());
  if (!claimed.message) {
    context.relay.notify();
    return claimed.otherwise;
  }
  Outgoing& message = *claimed.message;
  if (message.verification) {
    db::Session sql(context.db);
    auto text = verifications::verificationText(*sql, code_secret, message_id);
    if (!text) {
      spdlog::error("verification message {}: its code cannot be opened; not sent", message_id);
      soci::transaction tx(*sql);
      failStaleHandoff(*sql, message_id, context.clock.now());
      tx.commit();
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
  HandoffDecision decision =
      decideHandoff(result, message.charge.cost_cents, message.part_price_cents);
  const TimePoint now = context.clock.now();
  // The carrier's answer exists only in this process until it is recorded: given up, the
  // hand-off would end STALE_QUEUED (refunded) although the text went out. A retry after a
  // commit whose outcome was lost finds the message no longer QUEUED and changes nothing.
  withRetries("recording the carrier's answer", 4, [&] {
    db::Session sql(context.db);
    soci::transaction tx(*sql);
    if (decision.move == messaging::Move::CarrierAccepted) {
      accepted(*sql, message, result, decision, policy, now);
    } else {
      failed(*sql, message, decision, result, policy, now);
    }
    if (message.verification) verifications::forgetSealedCode(*sql, message_id);
    tx.commit();
  });
  context.relay.notify();
  return HandoffOutcome::Settled;
}

}  // namespace smsgw::workers
