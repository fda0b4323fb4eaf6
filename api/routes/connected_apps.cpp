// The account's connected apps (services/oauth/connections.h): its OAuth grants, and ending one.
#include "api/routes/routes.h"
#include "services/oauth/connections.h"

namespace smsgw::api {

void addConnectedAppRoutes(Router& router, App& app) {
  RouteOptions read = needs("api_keys:r");
  read.allowed_before_payment = true;
  router.add("GET", "/v1/connected-apps", read, [&app](ApiRequest& req) {
    return ApiResponse::json(
        200, {{"data", oauth::listConnections(app.db, req.who(), app.clock.now())}});
  });
  RouteOptions end = needs("api_keys:d");
  end.allowed_before_payment = true;
  router.add("DELETE", "/v1/connected-apps/{id}", end, [&app](ApiRequest& req) {
    oauth::endConnection(app.db, req.who(), req.params.at("id"), app.clock.now());
    return ApiResponse::noContent();
  });
}

}  // namespace smsgw::api
