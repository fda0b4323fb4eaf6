// GET /health: the process serves and its database answers. Unauthenticated.
#include <soci/soci.h>

#include "api/routes/routes.h"

namespace smsgw::api {

void addHealthRoutes(Router& router, App& app) {
  RouteOptions open;
  open.authenticated = false;
  router.add("GET", "/health", open, [&app](ApiRequest&) {
    try {
      db::Session sql(app.db);
      int one = 0;
      *sql << "SELECT 1", soci::into(one);
      return ApiResponse::json(200, {{"status", "ok"}, {"database", "ok"}});
    } catch (const std::exception&) {
      return ApiResponse::json(503, {{"status", "degraded"}, {"database", "unreachable"}});
    }
  });
}

}  // namespace smsgw::api
