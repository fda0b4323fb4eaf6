// POST /v1/messages' transaction (accept_send.h).
#include "services/sending/accept_send.h"

#include <soci/soci.h>

#include "adapters/log.h"
#include "db/json_rows.h"
#include "db/procedures/accept_outbound_message.h"
#include "domain/crypto.h"
#include "domain/errors.h"
#include "domain/ids.h"
#include "services/compliance/consent_check.h"
#include "services/messaging/charges.h"
#include "services/messaging/lifecycle.h"
#include "services/sending/send_checks.h"
#include "services/sending/send_standing.h"
#include "topics/catalogue.h"
#include "topics/event_writer.h"
#include "topics/records.h"

namespace smsgw::sending {
namespace {

using db::kMessageJson;
using db::queryJson;

// What an earlier request with the same Idempotency-Key left.
struct EarlierSend {
  std::string message_id;
  bool queue_again = false;  // it failed before reaching the carrier
  int attempt = 1;
};

std::optional<EarlierSend> earlierSend(soci::session& sql, const Caller& caller,
                                       const std::string& key, const std::string& fingerprint,
                                       TimePoint now) {
  std::string mode(toString(caller.mode)), at = formatIso(now);
  // The spec's idempotency window: a key older than 24 hours is forgotten.
  sql << "DELETE FROM message_idempotency_keys WHERE account_id = :a AND mode = :m AND "
         "idempotency_key = :k AND created_at < :now::timestamptz - interval '24 hours'",
      soci::use(caller.account_id), soci::use(mode), soci::use(key), soci::use(at);
  EarlierSend earlier;
  std::string existing_fingerprint;
  int queue_again = 0;
  // FOR UPDATE: a concurrent retry with this key waits for this one, then sees its outcome.
  // failed_before_carrier (SQL): the carrier never took it, so a retry may send it.
  sql << "SELECT k.message_id, k.fingerprint, failed_before_carrier(m.status, m.error_code)"
         "::int, m.send_attempt FROM message_idempotency_keys k JOIN messages m ON m.id = "
         "k.message_id WHERE k.account_id = :a AND k.mode = :m AND k.idempotency_key = :k "
         "FOR UPDATE OF k",
      soci::use(caller.account_id), soci::use(mode), soci::use(key), soci::into(earlier.message_id),
      soci::into(existing_fingerprint), soci::into(queue_again), soci::into(earlier.attempt);
  if (!sql.got_data()) return std::nullopt;
  if (existing_fingerprint != fingerprint) throw ApiError(ErrorCode::IDEMPOTENCY_KEY_REUSED);
  earlier.queue_again = queue_again != 0;
  return earlier;
}

nlohmann::json sentMessage(nlohmann::json message,
                           const std::optional<std::string>& estimated_send_at) {
  message["estimated_send_at"] =
      estimated_send_at ? nlohmann::json(*estimated_send_at) : nlohmann::json(nullptr);
  return message;
}

struct Accepted {
  std::string id;
  int attempt = 1;
  int parts = 0;
  int part_price_cents = 0;
  long long cost_cents = 0;
  std::optional<std::string> send_at;  // LIVE: the pacing slot
  std::string consent_type;            // null when the check was skipped
  std::string body_sha256;
};

// The SQL function accept_outbound_message writes the send in one round trip: the charge and
// pacing slot (LIVE), the message or its new attempt, the hourly counter, message.queued and
// the sms.outbound record. Returns the rendered message for a new one.
std::optional<nlohmann::json> accept(soci::session& sql, const Caller& caller,
                                     const SendRequest& send, const SendPolicy& policy, Accepted& m,
                                     bool queue_again, TimePoint now) {
  std::string mode(toString(caller.mode));
  // Accept or Requeue: both make the message QUEUED and raise message.queued, same payload.
  const messaging::Transition& move =
      messaging::transitionOf(queue_again ? messaging::Move::Requeue : messaging::Move::Accept);
  auto event =
      topics::prepareEvent({caller.account_id, std::string(move.event), caller.live(),
                            messaging::queuedEvent({m.id, send.from.str(), send.to.str()})});
  db::OutboundAcceptance acceptance{
      .message_id = m.id,
      .account_id = caller.account_id,
      .mode = mode,
      .from = send.from.str(),
      .to = send.to.str(),
      .body = send.body,
      .parts = m.parts,
      .cost_cents = m.cost_cents,
      .part_price_cents = m.part_price_cents,
      .body_sha256 = m.body_sha256,
      .consent_type =
          m.consent_type.empty() ? std::nullopt : std::optional<std::string>(m.consent_type),
      .queue_again = queue_again,
      .attempt = m.attempt,
      .status = std::string(messaging::toString(move.to)),
      .event_type = std::string(move.event),
      .charge_reference = messaging::chargeReference(m.id, m.attempt),
      .charge_description = "SMS to " + send.to.str() + " (" + std::to_string(m.parts) + " parts)",
      .toll_free_parts_per_minute = policy.toll_free_parts_per_minute,
      .local_parts_per_minute = policy.local_parts_per_minute,
      .event_id = event.id,
      .event_record = event.record_json,
      .events_topic = std::string(topics::kEvents.name),
      .outbound_topic = std::string(topics::kSmsOutbound.name),
      .outbound_record =
          topics::OutboundSms{m.id, caller.account_id, send.from.str(), mode}.toJson().dump(),
      .now = now,
      .request_id = RequestScope::current()};
  db::OutboundAccepted accepted = db::acceptOutboundMessage(sql, acceptance);
  if (accepted.refusal) {
    switch (*accepted.refusal) {
      case db::OutboundRefusal::InsufficientBalance:
        throw ApiError(ErrorCode::INSUFFICIENT_BALANCE, {{"required_cents", m.cost_cents}});
      case db::OutboundRefusal::PhoneNumberNotOwned:
        throw ApiError(ErrorCode::PHONE_NUMBER_NOT_OWNED, {{"from", send.from.str()}});
      case db::OutboundRefusal::AlreadyQueued:
        // Unreachable under the Idempotency-Key's row lock; the client may retry.
        throw ApiError(ErrorCode::CONFLICT, {{"reason", "idempotent_request_raced"}});
    }
  }
  m.send_at = accepted.send_at;
  if (!accepted.rendered) return std::nullopt;
  return nlohmann::json::parse(*accepted.rendered);
}

}  // namespace

std::optional<nlohmann::json> acceptSend(const SendServices& services,
                                         const accounts::CallerGuess& who, const SendRequest& send,
                                         const std::optional<std::string>& looked_up) {
  const Caller& caller = who.caller;
  std::string mode(toString(caller.mode));
  const SendPolicy& policy = services.policy;
  db::Session sql(services.db);
  soci::transaction tx(*sql);
  std::optional<EarlierSend> earlier;
  const TimePoint now = services.clock.now();
  if (!send.idempotency_key.empty()) {
    earlier = earlierSend(*sql, caller, send.idempotency_key, send.fingerprint, now);
    if (earlier && !earlier->queue_again) {
      accounts::confirmCaller(*sql, who, now);  // a replay reads nothing else
      return sentMessage(*queryJson(*sql, kMessageJson, earlier->message_id), {});
    }
  }
  Accepted message;
  message.body_sha256 = crypto::sha256Hex(send.body);
  SendStanding standing = readSendStanding(*sql, caller, policy, send.from, send.to,
                                           message.body_sha256, now, who.unconfirmed_key_hash);
  // Before anything is decided from the caller.
  accounts::confirmCaller(*sql, who, standing.key_row, now);
  if (caller.live()) {  // TEST sends never touch live lookups or live failures
    const auto& cached = standing.destination.cached_line_type;
    if (!cached && !looked_up) return std::nullopt;
    checkLiveDestination(cached ? *cached : *looked_up, standing.destination, send.to);
  }
  message.parts = checkBody(send.body).parts;
  checkSender(*sql, caller, send.from, send.to, send.skip_consent_check, standing.sender,
              standing.fence);
  if (!send.skip_consent_check) {  // the one CASL decision: 451 when it refuses
    auto decision = compliance::decideConsent(*sql, caller.account_id, mode, send.to.str(),
                                              standing.consent, now);
    if (!decision.allowed) throw ApiError(decision.refusal(), {{"reason", decision.reason}});
    message.consent_type = decision.consent_type;
  }
  checkSendLimits(standing.counts, policy);
  message.part_price_cents = standing.counts.part_price_cents;
  message.cost_cents = static_cast<long long>(message.part_price_cents) * message.parts;
  message.id = earlier ? earlier->message_id : newId("msg");
  message.attempt = earlier ? earlier->attempt + 1 : 1;
  // TEST: nothing is charged; cost_cents says what it would have cost.
  std::optional<nlohmann::json> rendered =
      accept(*sql, caller, send, policy, message, earlier.has_value(), now);
  if (!send.idempotency_key.empty() && !earlier) {
    *sql << "INSERT INTO message_idempotency_keys (account_id, mode, idempotency_key, "
            "fingerprint, message_id) VALUES (:a, :m, :k, :f, :id) ON CONFLICT DO NOTHING "
            "RETURNING 1",
        soci::use(caller.account_id), soci::use(mode), soci::use(send.idempotency_key),
        soci::use(send.fingerprint), soci::use(message.id);
    // A concurrent first request with the same key committed meanwhile: let the client retry.
    if (!sql->got_data())
      throw ApiError(ErrorCode::CONFLICT, {{"reason", "idempotent_request_raced"}});
  }
  nlohmann::json response =
      sentMessage(rendered ? std::move(*rendered) : *queryJson(*sql, kMessageJson, message.id),
                  message.send_at);
  tx.commit();
  services.relay.notify();
  return response;
}

}  // namespace smsgw::sending
