// POST /v1/messages. One transaction: one read of everything the checks need (send_standing),
// the checks in the order the send refuses, then the charge (parts × the outbound price, LIVE
// only), the pacing slot, the message, its event and its sms.outbound record in one call.
// Idempotency-Key: the same key returns the same message; a message that failed before
// reaching the carrier is queued again (a new attempt, charged again) under the same id, as the
// spec's message table says. A caller the edge took from its cache is confirmed by the same
// read (or alone, on a replay), before anything is decided from it.
#include <soci/soci.h>

#include "api/http/auth.h"
#include "api/routes/json_rows.h"
#include "api/routes/routes.h"
#include "api/routes/send_checks.h"
#include "api/routes/send_standing.h"
#include "api/routes/validate.h"
#include "domain/crypto.h"
#include "domain/errors.h"
#include "domain/ids.h"
#include "services/compliance/consent_check.h"
#include "services/messaging/charges.h"
#include "services/messaging/lifecycle.h"
#include "topics/catalogue.h"
#include "topics/event_writer.h"
#include "topics/records.h"

namespace smsgw::api {
namespace {

struct SendRequest {
  E164 from;
  E164 to;
  std::string body;
  bool skip_consent_check;
};

E164 requireCanadian(const nlohmann::json& body, const char* field) {
  E164 number = requirePhone(requireString(body, field, 20), field);
  if (!isCanadianNumber(number)) {
    throw ApiError(ErrorCode::NON_CANADIAN_NUMBER,
                   nlohmann::json::array({{{"field", field}, {"message", "must be Canadian"}}}));
  }
  return number;
}

SendRequest validateSend(const ApiRequest& req) {
  const auto& body = requireObjectBody(req);
  E164 to = requireCanadian(body, "to");
  E164 from = requireCanadian(body, "from");
  if (!body.contains("body") || !body["body"].is_string() ||
      body["body"].get_ref<const std::string&>().empty()) {
    throw validationError("body", "is required");
  }
  std::string text = body["body"];
  if (!countSegments(text).valid_utf8) throw validationError("body", "must be valid UTF-8");
  bool skip = optionalBool(body, "skip_consent_check").value_or(false);
  return {from, to, text, skip};
}

// What an earlier request with the same Idempotency-Key left.
struct EarlierSend {
  std::string message_id;
  bool queue_again = false;  // it failed before reaching the carrier
  int attempt = 1;
};

std::optional<EarlierSend> earlierSend(soci::session& sql, const Caller& caller,
                                       const std::string& key, const std::string& fingerprint) {
  std::string mode(toString(caller.mode));
  sql << "DELETE FROM message_idempotency_keys WHERE account_id = :a AND mode = :m AND "
         "idempotency_key = :k AND created_at < now() - interval '24 hours'",
      soci::use(caller.account_id), soci::use(mode), soci::use(key);
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

ApiResponse sentMessage(nlohmann::json message,
                        const std::optional<std::string>& estimated_send_at) {
  message["estimated_send_at"] =
      estimated_send_at ? nlohmann::json(*estimated_send_at) : nlohmann::json(nullptr);
  return ApiResponse::json(201, message);
}

ApiResponse sentMessage(soci::session& sql, const std::string& id,
                        const std::optional<std::string>& estimated_send_at) {
  return sentMessage(*queryJson(sql, kMessageJson, id), estimated_send_at);
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
  std::string consent = m.consent_type;
  soci::indicator consent_ind = consent.empty() ? soci::i_null : soci::i_ok;
  std::string charge_reference = messaging::chargeReference(m.id, m.attempt);
  std::string charge_description =
      "SMS to " + send.to.str() + " (" + std::to_string(m.parts) + " parts)";
  int queue_again_flag = queue_again ? 1 : 0;
  // Accept or Requeue: both raise message.queued with the same payload.
  auto event = topics::prepareEvent(
      {caller.account_id, std::string(messaging::transitionOf(messaging::Move::Accept).event),
       caller.live(), messaging::queuedEvent({m.id, send.from.str(), send.to.str()})});
  std::string events_topic(topics::kEvents.name), outbound_topic(topics::kSmsOutbound.name);
  std::string outbound_record =
      topics::OutboundSms{m.id, caller.account_id, send.from.str(), mode}.toJson().dump();
  std::string refusal, send_at, rendered, at = formatIso(now);
  soci::indicator refusal_ind = soci::i_null, send_at_ind = soci::i_null,
                  rendered_ind = soci::i_null;
  sql << "SELECT * FROM accept_outbound_message(:id, :a, :mode, :from, :to, :body, :parts, "
         ":cost, :price, :sha, :consent, :queue_again::int::boolean, :attempt, :charge_ref, "
         ":charge_description, :toll_free, :local, :event_id::uuid, :event::jsonb, "
         ":events_topic, :outbound_topic, :outbound, :now::timestamptz)",
      soci::use(m.id), soci::use(caller.account_id), soci::use(mode), soci::use(send.from.str()),
      soci::use(send.to.str()), soci::use(send.body), soci::use(m.parts), soci::use(m.cost_cents),
      soci::use(m.part_price_cents), soci::use(m.body_sha256), soci::use(consent, consent_ind),
      soci::use(queue_again_flag), soci::use(m.attempt), soci::use(charge_reference),
      soci::use(charge_description), soci::use(policy.toll_free_parts_per_minute),
      soci::use(policy.local_parts_per_minute), soci::use(event.id), soci::use(event.record_json),
      soci::use(events_topic), soci::use(outbound_topic), soci::use(outbound_record), soci::use(at),
      soci::into(refusal, refusal_ind), soci::into(send_at, send_at_ind),
      soci::into(rendered, rendered_ind);
  if (refusal_ind == soci::i_ok) {
    if (refusal == "INSUFFICIENT_BALANCE")
      throw ApiError(ErrorCode::INSUFFICIENT_BALANCE, {{"required_cents", m.cost_cents}});
    if (refusal == "PHONE_NUMBER_NOT_OWNED")
      throw ApiError(ErrorCode::PHONE_NUMBER_NOT_OWNED, {{"from", send.from.str()}});
    // ALREADY_QUEUED: unreachable under the Idempotency-Key's row lock; the client may retry.
    throw ApiError(ErrorCode::CONFLICT, {{"reason", "idempotent_request_raced"}});
  }
  if (send_at_ind == soci::i_ok) m.send_at = send_at;
  if (rendered_ind != soci::i_ok) return std::nullopt;
  return nlohmann::json::parse(rendered);
}

// One attempt at the send transaction. Returns no response when the destination's line type
// is neither cached nor `looked_up`: the caller asks the carrier outside the transaction (no
// pooled connection waits on the carrier, and the answer is cached whatever the send decides)
// and tries again.
std::optional<ApiResponse> sendInTransaction(App& app, ApiRequest& req, const SendRequest& send,
                                             const std::string& idempotency_key,
                                             const std::string& fingerprint,
                                             const std::optional<std::string>& looked_up) {
  const Caller& caller = req.who();
  std::string mode(toString(caller.mode));
  const SendPolicy& policy = app.config.send_policy;
  db::Session sql(app.db);
  soci::transaction tx(*sql);
  std::optional<EarlierSend> earlier;
  const TimePoint now = app.clock.now();
  if (!idempotency_key.empty()) {
    earlier = earlierSend(*sql, caller, idempotency_key, fingerprint);
    if (earlier && !earlier->queue_again) {
      confirmCaller(*sql, req, now);  // a replay reads nothing else
      return sentMessage(*sql, earlier->message_id, {});
    }
  }
  Accepted message;
  message.body_sha256 = crypto::sha256Hex(send.body);
  SendStanding standing = readSendStanding(*sql, caller, policy, send.from, send.to,
                                           message.body_sha256, now, req.unconfirmed_key_hash);
  confirmCaller(*sql, req, standing.key_row, now);  // before anything is decided from the caller
  if (caller.live()) {  // TEST sends never touch live lookups or live failures
    const auto& cached = standing.destination.cached_line_type;
    if (!cached && !looked_up) return std::nullopt;
    checkLiveDestination(cached ? *cached : *looked_up, standing.destination, send.to);
  }
  message.parts = checkBody(send.body).parts;
  checkSender(*sql, caller, send.from, send.to, send.skip_consent_check, standing.sender);
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
  if (!idempotency_key.empty() && !earlier) {
    *sql << "INSERT INTO message_idempotency_keys (account_id, mode, idempotency_key, "
            "fingerprint, message_id) VALUES (:a, :m, :k, :f, :id) ON CONFLICT DO NOTHING "
            "RETURNING 1",
        soci::use(caller.account_id), soci::use(mode), soci::use(idempotency_key),
        soci::use(fingerprint), soci::use(message.id);
    // A concurrent first request with the same key committed meanwhile: let the client retry.
    if (!sql->got_data())
      throw ApiError(ErrorCode::CONFLICT, {{"reason", "idempotent_request_raced"}});
  }
  ApiResponse response = rendered ? sentMessage(std::move(*rendered), message.send_at)
                                  : sentMessage(*sql, message.id, message.send_at);
  tx.commit();
  app.relay.notify();
  return response;
}

}  // namespace

ApiResponse sendMessage(App& app, ApiRequest& req) {
  const Caller& caller = req.who();
  SendRequest send = validateSend(req);
  std::string idempotency_key = req.header("idempotency-key").value_or("");
  if (idempotency_key.size() > 255)
    throw validationError("Idempotency-Key", "must be at most 255 characters");
  std::string fingerprint =
      crypto::sha256Hex(send.from.str() + "\n" + send.to.str() + "\n" + send.body);
  checkDestinationNumber(caller, send.to);
  auto response = sendInTransaction(app, req, send, idempotency_key, fingerprint, {});
  if (response) return std::move(*response);
  // The destination's line type is not cached: asked now, outside any transaction, and given
  // to the second attempt, which therefore always answers. The carrier may take seconds to
  // answer, so the request waits for it on the slow lane, not on a reactor thread.
  if (!req.on_slow_lane) throw MoveToSlowLane{};
  response =
      sendInTransaction(app, req, send, idempotency_key, fingerprint, lookUpLineType(app, send.to));
  return std::move(*response);
}

}  // namespace smsgw::api
