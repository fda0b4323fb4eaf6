#include "services/messaging/handoffs.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "adapters/log.h"
#include "db/prepared_statement.h"
#include "db/procedures/claim_handoff.h"
#include "db/procedures/record_carrier_acceptance.h"
#include "domain/errors.h"
#include "services/messaging/deferral.h"
#include "services/messaging/in_doubt.h"
#include "services/messaging/lifecycle.h"
#include "services/messaging/protection.h"
#include "services/messaging/receipts.h"
#include "services/messaging/still_queued.h"
#include "services/messaging/undeliverable.h"
#include "topics/catalogue.h"
#include "topics/event_writer.h"
#include "topics/records.h"

namespace smsgw::messaging {
namespace {

OutgoingMessage outgoing(const std::string& id, db::ClaimedHandoff claimed) {
  OutgoingMessage message;
  message.charge = {id, std::move(claimed.account_id), claimed.send_attempt, claimed.cost_cents};
  message.from = std::move(claimed.from_number);
  message.to = std::move(claimed.to_number);
  message.verification = claimed.is_verification;  // its kind: a purged body is no code
  if (claimed.body) message.body = std::move(*claimed.body);
  message.part_price_cents = claimed.part_price_cents;
  return message;
}

// SENDING, the charge settled on the parts the carrier counted (more when the balance covers
// them, otherwise the accepted charge stands), message.sent, and a receipt that came first
// applied after it: record_carrier_acceptance (db/functions) in one round trip.
void accepted(soci::session& sql, const OutgoingMessage& message, const CarrierSendResult& result,
              const HandoffDecision& decision, const SendPolicy& policy, TimePoint now) {
  const ChargedMessage& charge = message.charge;
  int parts = result.parts;
  long long settled = decision.settled_cents, adjustment = decision.adjustment_cents;
  const Transition& move = transitionOf(decision.move);
  auto event = topics::prepareEvent({charge.account_id, std::string(move.event), true,
                                     sentEvent({charge.id, message.from, message.to},
                                               result.carrier_message_id, parts, settled)});
  auto recorded = db::recordCarrierAcceptance(
      sql, {.message_id = charge.id,
            .status = std::string(toString(move.to)),
            .event_type = std::string(move.event),
            .carrier_message_id = result.carrier_message_id,
            .parts = parts,
            .adjustment_cents = adjustment,
            .charge_reference = chargeReference(charge.id, charge.attempt),
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
  if (recorded->receipt_held) applyHeldReceipt(sql, result.carrier_message_id, policy, now);
}

// FAILED at hand-off (message.failed form a), refunded.
void failed(soci::session& sql, const OutgoingMessage& message, const HandoffDecision& decision,
            const CarrierSendResult& result, const SendPolicy& policy, TimePoint now) {
  std::string code(errorInfo(decision.failure).name), text = decision.error_message;
  std::string at = formatIso(now);
  const auto& move = transitionOf(decision.move);
  std::string status(toString(move.to)), updated;
  sql << std::string(
             "UPDATE messages SET status = :s, error_code = :c, error_message = "
             ":m, updated_at = :now::timestamptz WHERE id = :id AND ") +
             kStillQueued + " RETURNING id",
      soci::use(status), soci::use(code), soci::use(text), soci::use(at),
      soci::use(message.charge.id), soci::into(updated);
  if (!sql.got_data()) return;
  refundCharge(sql, message.charge, "the carrier did not take the message");
  topics::raiseEvent(sql, {message.charge.account_id, std::string(move.event), true,
                           handoffFailedEvent({message.charge.id, message.from, message.to},
                                              decision.failure, text)});
  if (decision.counts_against_destination) {
    recordCarrierFailure(sql, message.to, result.error_code, now);
    reviewDeliveryHealth(sql, message.charge.account_id, policy, now);
  }
}

// Throttled or not reached: QUEUED again, its hand-off no longer started, its slot at the end of
// the carrier's window, still charged and with no event (the customer sees it queued, as it is).
// False when it was accepted too long ago to wait again, or is no longer QUEUED.
bool requeued(soci::session& sql, const OutgoingMessage& message, const HandoffDecision& decision,
              const SendPolicy& policy, TimePoint now) {
  std::string at = formatIso(now), until = formatIso(decision.requeue_until);
  int give_up_seconds = policy.throttled_requeue_seconds;
  std::string updated;
  sql << std::string(
             "UPDATE messages SET handoff_started_at = NULL, updated_at = :now::timestamptz, "
             "send_at = greatest(:until::timestamptz, send_at, created_at + "
             "interval '1 millisecond') WHERE id = :id AND mode = 'LIVE' AND created_at > "
             ":now2::timestamptz - make_interval(secs => :give_up) AND ") +
             kStillQueued + " RETURNING id",
      soci::use(at), soci::use(until), soci::use(message.charge.id), soci::use(at),
      soci::use(give_up_seconds), soci::into(updated);
  return sql.got_data();
}

}  // namespace

HandoffClaim claimHandoff(db::Database& db, const std::string& id, int stale_after_seconds,
                          TimePoint now) {
  db::Session sql(db);
  // One statement, committed on its own: the hand-off is on record before the carrier is called.
  if (auto claimed = db::claimHandoff(*sql, {.message_id = id, .now = now}))
    return {ClaimOutcome::Claimed, outgoing(id, std::move(*claimed))};
  soci::transaction tx(*sql);
  auto state =
      db::handoffState(*sql, {.message_id = id, .stale_seconds = stale_after_seconds, .now = now});
  switch (judgeUnclaimed(state.has_value(), state && state->queued, state && state->started,
                         state && state->stale)) {
    case UnclaimedVerdict::Settled:
      return {};
    case UnclaimedVerdict::NotDue:
      return {ClaimOutcome::NotDue, std::nullopt};
    case UnclaimedVerdict::InProgressElsewhere:
      throw topics::RetryableError("hand-off of " + id + " in progress elsewhere");
    case UnclaimedVerdict::Interrupted:
      break;
  }
  failStaleHandoff(*sql, id, now);
  tx.commit();
  return {};
}

void recordCarrierAnswer(soci::session& sql, const OutgoingMessage& message,
                         const CarrierSendResult& result, const HandoffDecision& decision,
                         const SendPolicy& policy, TimePoint now) {
  if (decision.move == Move::CarrierAccepted) {
    accepted(sql, message, result, decision, policy, now);
  } else if (decision.in_doubt) {
    markInDoubt(sql, message, policy, now);
  } else if (!decision.requeue || !requeued(sql, message, decision, policy, now)) {
    failed(sql, message, decision, result, policy, now);
  }
}

void recordCarrierAnswer(db::Database& db, const OutgoingMessage& message,
                         const CarrierSendResult& result, const HandoffDecision& decision,
                         const SendPolicy& policy, TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  recordCarrierAnswer(*sql, message, result, decision, policy, now);
  tx.commit();
}

void recordCarrierAnswers(db::Database& db, const std::vector<CarrierAnswer>& answers,
                          const SendPolicy& policy, TimePoint now) {
  std::vector<const CarrierAnswer*> ordered;
  ordered.reserve(answers.size());
  for (const auto& answer : answers) ordered.push_back(&answer);
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto* a, const auto* b) {
    return a->result.carrier_message_id < b->result.carrier_message_id;
  });
  db::Session sql(db);
  soci::transaction tx(*sql);
  for (const auto* answer : ordered) {
    RequestScope scope(answer->request_id);
    recordCarrierAnswer(*sql, answer->message, answer->result, answer->decision, policy, now);
  }
  tx.commit();
}

void failStaleHandoff(soci::session& sql, const std::string& id, TimePoint now) {
  ChargedMessage message;
  message.id = id;
  const auto& move = transitionOf(Move::HandoffInterrupted);
  std::string status(toString(move.to));
  std::string code(errorInfo(ErrorCode::STALE_QUEUED).name);
  std::string text(errorInfo(ErrorCode::STALE_QUEUED).message_en), at = formatIso(now);
  sql << std::string(
             "UPDATE messages SET status = :s, error_code = :c, error_message = :m, "
             "updated_at = :now::timestamptz WHERE id = :id AND ") +
             kStillQueued + " RETURNING account_id, cost_cents, send_attempt",
      soci::use(status), soci::use(code), soci::use(text), soci::use(at), soci::use(id),
      soci::into(message.account_id), soci::into(message.cost_cents), soci::into(message.attempt);
  if (!sql.got_data()) return;
  refundCharge(sql, message, "sending interrupted");
  topics::raiseEvent(sql,
                     {message.account_id, std::string(move.event), true, interruptedEvent(id)});
}

void failStaleHandoff(db::Database& db, const std::string& id, TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  failStaleHandoff(*sql, id, now);
  tx.commit();
}

void deferHandoff(db::Database& db, const std::string& message_id, TimePoint until) {
  db::Session sql(db);
  deferHandoff(*sql, message_id, until);
}

std::vector<std::string> pacedMessagesDue(db::Database& db, TimePoint now, int batch) {
  // Prepared: the sender sweeps for paced messages every second or so, and this was planned
  // each time.
  static const db::PreparedStatement due_now(
      "paced_messages_due",
      "SELECT id FROM messages WHERE status = 'QUEUED' AND mode = 'LIVE' AND "
      "handoff_started_at IS NULL AND send_at > created_at AND send_at <= $1::timestamptz "
      "ORDER BY send_at, created_at LIMIT $2::int");
  db::Session sql(db);
  std::vector<std::string> due;
  for (const db::Row& row : due_now.run(*sql, {formatIso(now), std::to_string(batch)})) {
    due.push_back(db::textOr(row[0]));
  }
  return due;
}

}  // namespace smsgw::messaging
