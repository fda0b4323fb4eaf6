// Messages: read and list; the send itself is send_message.cpp.
#include <set>

#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/errors.h"
#include "services/messaging/message_reads.h"

namespace smsgw::api {
namespace {

ApiResponse getMessage(App& app, ApiRequest& req) {
  return ApiResponse::json(200, messaging::message(app.db, req.who(), req.params.at("id")));
}

// A date-time query parameter, as given (ISO 8601, e.g. 2026-11-27T00:00:00Z); "" when absent.
std::string queryInstant(const ApiRequest& req, const char* name) {
  std::string text = queryValue(req, name);
  if (text.empty()) return text;
  auto instant = parseIso(text);
  if (!instant)
    throw validationError(name, "must be an ISO 8601 date-time such as 2026-11-27T00:00:00Z");
  return formatIso(*instant);
}

ApiResponse listMessages(App& app, ApiRequest& req) {
  auto [page, limit] = queryPage(req);
  std::string status = queryValue(req, "status"), direction = queryValue(req, "direction");
  // Numbers as stored (a short code's inbound text has no '+'), so not checked as E.164.
  std::string to = queryNumberText(req, "to"), from = queryNumberText(req, "from");
  for (auto& c : status) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (auto& c : direction) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  static const std::set<std::string> kStatuses = {"",          "QUEUED", "SENDING",     "SENT",
                                                  "DELIVERED", "FAILED", "UNDELIVERED", "RECEIVED"};
  if (!kStatuses.count(status)) throw validationError("status", "unknown message status");
  if (!direction.empty() && direction != "OUTBOUND" && direction != "INBOUND") {
    throw validationError("direction", "must be OUTBOUND or INBOUND");
  }
  messaging::MessageFilter filter{status,
                                  direction,
                                  to,
                                  from,
                                  queryInstant(req, "created_after"),
                                  queryInstant(req, "created_before")};
  return ApiResponse::json(200, messaging::messagePage(app.db, req.who(), filter, page, limit));
}

}  // namespace

ApiResponse sendMessage(App& app, ApiRequest& req);  // send_message.cpp

void addMessageRoutes(Router& router, App& app) {
  RouteOptions send = needs("messages:w");
  send.confirms_caller = true;  // in send_standing's read, or alone on an Idempotency-Key replay
  router.add("POST", "/v1/messages", send, [&app](ApiRequest& r) { return sendMessage(app, r); });
  router.add("GET", "/v1/messages", needs("messages:r"),
             [&app](ApiRequest& r) { return listMessages(app, r); });
  router.add("GET", "/v1/messages/{id}", needs("messages:r"),
             [&app](ApiRequest& r) { return getMessage(app, r); });
}

}  // namespace smsgw::api
