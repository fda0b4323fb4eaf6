// POST /v1/messages: reads and checks the request, then the sending service
// (services/sending/accept_send.h) does the rest in one transaction. A caller the edge took
// from its cache is confirmed by the service's first read (or alone, on a replay), before
// anything is decided from it.

#include "adapters/metrics.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/crypto.h"
#include "domain/errors.h"
#include "services/sending/accept_send.h"
#include "services/sending/send_checks.h"

namespace smsgw::api {
namespace {

E164 requireCanadian(const nlohmann::json& body, const char* field) {
  E164 number = requirePhone(requireString(body, field, 20), field);
  if (!isCanadianNumber(number)) {
    throw ApiError(ErrorCode::NON_CANADIAN_NUMBER,
                   nlohmann::json::array({{{"field", field}, {"message", "must be Canadian"}}}));
  }
  return number;
}

sending::SendRequest validateSend(const ApiRequest& req) {
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
  return {from, to, text, skip, "", ""};
}

// The request's checks and the sending service; the route below counts what it decided.
ApiResponse acceptMessage(App& app, ApiRequest& req) {
  const Caller& caller = req.who();
  sending::SendRequest send = validateSend(req);
  send.idempotency_key = req.header("idempotency-key").value_or("");
  if (send.idempotency_key.size() > 255)
    throw validationError("Idempotency-Key", "must be at most 255 characters");
  send.fingerprint = crypto::sha256Hex(send.from.str() + "\n" + send.to.str() + "\n" + send.body);
  sending::checkDestinationNumber(caller, send.to);
  sending::SendServices services{app.db, app.relay, app.clock, app.config.send_policy};
  accounts::CallerGuess who{caller, req.unconfirmed_key_hash};
  auto message = sending::acceptSend(services, who, send, {});
  if (!message) {
    // The destination's line type is not cached: asked now, outside any transaction, and given
    // to the second attempt, which therefore always answers. The carrier may take seconds to
    // answer, so the request waits for it on the slow lane, not on a reactor thread.
    if (!req.on_slow_lane) throw MoveToSlowLane{};
    message =
        sending::acceptSend(services, who, send,
                            sending::lookUpLineType(app.db, app.carrier, send.to, app.clock.now()));
  }
  return ApiResponse::json(201, std::move(*message));
}

}  // namespace

ApiResponse sendMessage(App& app, ApiRequest& req) {
  try {
    ApiResponse accepted = acceptMessage(app, req);
    metrics::sendDecided(true, "");
    return accepted;
  } catch (const ApiError& refusal) {
    metrics::sendDecided(false, errorInfo(refusal.code()).name);
    throw;
  }
}

}  // namespace smsgw::api
