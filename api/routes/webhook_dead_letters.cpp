// Dead letters: replay one to its endpoint now, or drop it (services/webhooks/dead_letters.h).
#include "api/routes/routes.h"
#include "services/webhooks/dead_letters.h"

namespace smsgw::api {
namespace {

ApiResponse replayDeadLetter(App& app, ApiRequest& req) {
  webhooks::ReplayServices services{
      app.db, app.clock, {app.config.webhook_timeout, app.config.allow_private_webhook_targets}};
  return ApiResponse::json(200,
                           webhooks::replayDeadLetter(services, req.who(), req.params.at("id")));
}

ApiResponse deleteDeadLetter(App& app, ApiRequest& req) {
  webhooks::dropDeadLetter(app.db, req.who(), req.params.at("id"));
  return ApiResponse::noContent();
}

}  // namespace

void addWebhookDeadLetterRoutes(Router& router, App& app) {
  RouteOptions replay = onSlowLane(needs("webhooks:w"));  // waits for the customer's server
  replay.handles_suspended_accounts = true;               // spec: 409 ACCOUNT_SUSPENDED, not 403
  router.add("POST", "/v1/webhooks/dead-letters/{id}/replay", replay,
             [&app](ApiRequest& r) { return replayDeadLetter(app, r); });
  router.add("DELETE", "/v1/webhooks/dead-letters/{id}", needs("webhooks:d"),
             [&app](ApiRequest& r) { return deleteDeadLetter(app, r); });
}

}  // namespace smsgw::api
