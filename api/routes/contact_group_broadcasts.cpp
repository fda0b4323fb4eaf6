// POST /v1/contact-groups/{id}/messages: reads the request, then the broadcast service
// (services/sending/broadcast.h) answers 207 with a result per member. `from` and `body` as for
// POST /v1/messages; a large group takes seconds, so it runs on the slow lane.
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/crypto.h"
#include "domain/errors.h"
#include "domain/sms_segments.h"
#include "services/sending/broadcast.h"

namespace smsgw::api {
namespace {

sending::BroadcastRequest readBroadcast(const ApiRequest& req) {
  const auto& body = requireObjectBody(req);
  for (const auto& [field, _] : body.items()) {
    if (field != "from" && field != "body" && field != "skip_consent_check")
      throw validationError(field, "is not a field of a broadcast");
  }
  E164 from = requirePhone(requireString(body, "from", 20), "from");
  if (!isCanadianNumber(from)) {
    throw ApiError(ErrorCode::NON_CANADIAN_NUMBER,
                   nlohmann::json::array({{{"field", "from"}, {"message", "must be Canadian"}}}));
  }
  std::string text = requireString(body, "body", 100'000);
  if (!countSegments(text).valid_utf8) throw validationError("body", "must be valid UTF-8");
  bool skip = optionalBool(body, "skip_consent_check").value_or(false);
  std::string key = req.header("idempotency-key").value_or("");
  if (key.size() > 255) throw validationError("Idempotency-Key", "must be at most 255 characters");
  std::string group_id = req.params.at("id");
  std::string fingerprint = crypto::sha256Hex(group_id + "\n" + from.str() + "\n" + text + "\n" +
                                              (skip ? "skip" : "check"));
  return {group_id, from, text, skip, key, fingerprint};
}

ApiResponse broadcast(App& app, ApiRequest& req) {
  sending::BroadcastRequest request = readBroadcast(req);
  sending::SendServices services{app.db, app.relay, app.clock, app.config.send_policy};
  return ApiResponse::json(207, sending::broadcastToGroup(services, req.who(), request));
}

}  // namespace

void addContactGroupBroadcastRoutes(Router& router, App& app) {
  router.add("POST", "/v1/contact-groups/{id}/messages", onSlowLane(needs("messages:w")),
             [&app](ApiRequest& r) { return broadcast(app, r); });
}

}  // namespace smsgw::api
