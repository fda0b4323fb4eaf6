// Messages: send (TEST travels the whole pipeline; the LIVE hand-off arrives with the messaging
// issue), read and list. A send commits the message, its event and its sms.outbound record
// together.
#include <soci/soci.h>

#include <set>

#include "api/routes/json_rows.h"
#include "api/routes/routes.h"
#include "api/routes/sending_number.h"
#include "api/routes/validate.h"
#include "db/outbox.h"
#include "domain/crypto.h"
#include "domain/errors.h"
#include "domain/ids.h"
#include "domain/sms_segments.h"
#include "topics/catalogue.h"
#include "topics/event_writer.h"
#include "topics/records.h"
#include "workers/compliance/consent_check.h"

namespace smsgw::api {
namespace {

constexpr const char* kMessageJson = "SELECT api_message(m)::text FROM messages m WHERE m.id = :id";

struct SendRequest {
  E164 from;
  E164 to;
  std::string body;
  int parts;
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
  SegmentCount count = countSegments(text);
  if (!count.valid_utf8) throw validationError("body", "must be valid UTF-8");
  if (count.parts > kMaxParts || count.characters > kMaxCharacters) {
    throw ApiError(ErrorCode::MESSAGE_TOO_LONG, {{"parts", count.parts},
                                                 {"characters", count.characters},
                                                 {"max_parts", kMaxParts},
                                                 {"max_characters", kMaxCharacters}});
  }
  bool skip = optionalBool(body, "skip_consent_check").value_or(false);
  if (skip && req.who().live())
    throw ApiError(ErrorCode::FORBIDDEN, {{"reason", "skip_consent_check_requires_test_key"}});
  return {from, to, text, count.parts, skip};
}

// LIVE sends: the checks that exist today, then a refusal without a charge, because the LIVE
// carrier hand-off arrives with the messaging issue (nothing would send a charged message).
void checkLiveSend(soci::session& sql, const Caller& caller, const E164& from) {
  int verified = 0;
  sql << "SELECT (verified_phone IS NOT NULL)::int FROM accounts WHERE id = :id",
      soci::use(caller.account_id), soci::into(verified);
  if (!verified) throw ApiError(ErrorCode::ACCOUNT_NOT_VERIFIED);
  requireLiveSendingNumber(sql, caller.account_id, from);
  throw ApiError(ErrorCode::SERVICE_UNAVAILABLE, {{"reason", "live_sending_not_enabled_yet"}});
}

ApiResponse sentMessage(soci::session& sql, const std::string& id, int status) {
  auto message = queryJson(sql, kMessageJson, id);
  (*message)["estimated_send_at"] = nullptr;  // TEST sends and idempotent replays carry no estimate
  return ApiResponse::json(status, *message);
}

ApiResponse sendMessage(App& app, ApiRequest& req) {
  const Caller& caller = req.who();
  SendRequest send = validateSend(req);
  std::string idempotency_key = req.header("idempotency-key").value_or("");
  if (idempotency_key.size() > 255)
    throw validationError("Idempotency-Key", "must be at most 255 characters");
  std::string fingerprint =
      crypto::sha256Hex(send.from.str() + "\n" + send.to.str() + "\n" + send.body);
  std::string mode(toString(caller.mode));

  db::Session sql(app.db);
  soci::transaction tx(*sql);
  if (!idempotency_key.empty()) {
    *sql << "DELETE FROM message_idempotency_keys WHERE account_id = :a AND mode = :m AND "
            "idempotency_key = :k "
            "AND created_at < now() - interval '24 hours'",
        soci::use(caller.account_id), soci::use(mode), soci::use(idempotency_key);
    std::string existing_id, existing_fingerprint;
    *sql << "SELECT message_id, fingerprint FROM message_idempotency_keys WHERE account_id = :a "
            "AND mode = :m "
            "AND idempotency_key = :k",
        soci::use(caller.account_id), soci::use(mode), soci::use(idempotency_key),
        soci::into(existing_id), soci::into(existing_fingerprint);
    if (sql->got_data()) {
      if (existing_fingerprint != fingerprint) throw ApiError(ErrorCode::IDEMPOTENCY_KEY_REUSED);
      return sentMessage(*sql, existing_id, 201);
    }
  }
  if (caller.live()) checkLiveSend(*sql, caller, send.from);
  if (!send.skip_consent_check) {  // the one CASL decision: 451 when it refuses
    auto decision = compliance::checkConsent(*sql, caller.account_id, mode, send.to.str(),
                                             send.from.str(), app.clock.now());
    if (!decision.allowed) throw ApiError(decision.refusal(), {{"reason", decision.reason}});
  }

  int price = 0;
  *sql << "SELECT cents FROM prices WHERE code = 'sms_outbound_part'", soci::into(price);
  long long cost = static_cast<long long>(price) * send.parts;  // TEST: what it would have cost
  std::string id = newId("msg");
  *sql << "INSERT INTO messages (id, account_id, direction, from_number, to_number, body, status, "
          "segment_count, mode, "
          "cost_cents) VALUES (:id, :a, 'OUTBOUND', :from, :to, :body, 'QUEUED', :parts, :mode, "
          ":cost)",
      soci::use(id), soci::use(caller.account_id), soci::use(send.from.str()),
      soci::use(send.to.str()), soci::use(send.body), soci::use(send.parts), soci::use(mode),
      soci::use(cost);
  if (!idempotency_key.empty()) {
    int inserted = 0;
    // A concurrent request with the same key waits here for the other to commit, then yields.
    *sql << "INSERT INTO message_idempotency_keys (account_id, mode, idempotency_key, fingerprint, "
            "message_id) "
            "VALUES (:a, :m, :k, :f, :id) ON CONFLICT DO NOTHING RETURNING 1",
        soci::use(caller.account_id), soci::use(mode), soci::use(idempotency_key),
        soci::use(fingerprint), soci::use(id), soci::into(inserted);
    if (!sql->got_data())
      throw ApiError(ErrorCode::CONFLICT, {{"reason", "idempotent_request_raced"}});
  }
  topics::raiseEvent(*sql, {caller.account_id,
                            "message.queued",
                            caller.live(),
                            {{"message_id", id},
                             {"from", send.from.str()},
                             {"to", send.to.str()},
                             {"status", "QUEUED"},
                             {"message_status", "QUEUED"}}});
  topics::OutboundSms record{id, caller.account_id, send.from.str(), mode};
  db::enqueueOutbox(*sql, std::string(topics::kSmsOutbound.name), send.from.str(),
                    record.toJson().dump());
  ApiResponse response = sentMessage(*sql, id, 201);
  tx.commit();
  app.relay.notify();
  return response;
}

ApiResponse getMessage(App& app, ApiRequest& req) {
  db::Session sql(app.db);
  const auto& id = req.params.at("id");
  std::string owner, mode;
  *sql << "SELECT account_id, mode FROM messages WHERE id = :id", soci::use(id), soci::into(owner),
      soci::into(mode);
  requireOwnedBy(sql->got_data() ? std::optional(owner) : std::nullopt, req.who().account_id);
  if (mode != toString(req.who().mode))
    throw ApiError(ErrorCode::NOT_FOUND);  // TEST and LIVE data stay apart
  return ApiResponse::json(200, *queryJson(*sql, kMessageJson, id));
}

std::string queryFilter(const ApiRequest& req, const char* name) {
  auto it = req.query.find(name);
  return it == req.query.end() ? "" : it->second;
}

ApiResponse listMessages(App& app, ApiRequest& req) {
  auto [page, limit] = queryPage(req);
  std::string status = queryFilter(req, "status"), direction = queryFilter(req, "direction");
  std::string to = queryFilter(req, "to"), from = queryFilter(req, "from");
  for (auto& c : status) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (auto& c : direction) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  static const std::set<std::string> kStatuses = {"",          "QUEUED", "SENDING",     "SENT",
                                                  "DELIVERED", "FAILED", "UNDELIVERED", "RECEIVED"};
  if (!kStatuses.count(status)) throw validationError("status", "unknown message status");
  if (direction != "" && direction != "OUTBOUND" && direction != "INBOUND") {
    throw validationError("direction", "must be OUTBOUND or INBOUND");
  }
  std::string mode(toString(req.who().mode));
  const std::string filter =
      " FROM messages m WHERE m.account_id = :a AND m.mode = :mode AND (:status = '' OR m.status = "
      ":status2) "
      "AND (:direction = '' OR m.direction = :direction2) AND (:to = '' OR m.to_number = :to2) "
      "AND (:from = '' OR m.from_number = :from2)";
  db::Session sql(app.db);
  long long total = 0;
  *sql << "SELECT count(*)" + filter, soci::use(req.who().account_id), soci::use(mode),
      soci::use(status), soci::use(status), soci::use(direction), soci::use(direction),
      soci::use(to), soci::use(to), soci::use(from), soci::use(from), soci::into(total);
  int offset = (page - 1) * limit;
  nlohmann::json data = nlohmann::json::array();
  soci::rowset<std::string> rows =
      (sql->prepare << "SELECT api_message(m)::text" + filter +
                           " ORDER BY m.created_at DESC, m.id LIMIT :limit OFFSET :offset",
       soci::use(req.who().account_id), soci::use(mode), soci::use(status), soci::use(status),
       soci::use(direction), soci::use(direction), soci::use(to), soci::use(to), soci::use(from),
       soci::use(from), soci::use(limit), soci::use(offset));
  for (const auto& text : rows) data.push_back(nlohmann::json::parse(text));
  long long pages = (total + limit - 1) / limit;
  return ApiResponse::json(
      200, {{"data", data},
            {"meta", {{"page", page}, {"limit", limit}, {"total", total}, {"pages", pages}}}});
}

}  // namespace

void addMessageRoutes(Router& router, App& app) {
  router.add("POST", "/v1/messages", needs("messages:w"),
             [&app](ApiRequest& r) { return sendMessage(app, r); });
  router.add("GET", "/v1/messages", needs("messages:r"),
             [&app](ApiRequest& r) { return listMessages(app, r); });
  router.add("GET", "/v1/messages/{id}", needs("messages:r"),
             [&app](ApiRequest& r) { return getMessage(app, r); });
}

}  // namespace smsgw::api
