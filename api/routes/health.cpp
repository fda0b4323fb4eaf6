// GET /health: the process serves and its database answers. Unauthenticated.
#include "api/routes/routes.h"

namespace smsgw::api {

void addHealthRoutes(Router& router, App& app) {
  RouteOptions open;
  open.authenticated = false;
  router.add("GET", "/health", open, [&app](ApiRequest&) {
    if (db::answers(app.db)) return ApiResponse::json(200, {{"status", "ok"}, {"database", "ok"}});
    return ApiResponse::json(503, {{"status", "degraded"}, {"database", "unreachable"}});
  });
}

}  // namespace smsgw::api
