// GET /v1/pricing: the price table, as stored (nothing else hard-codes a price).
#include <soci/soci.h>

#include "api/routes/json_rows.h"
#include "api/routes/routes.h"

namespace smsgw::api {

void addPricingRoutes(Router& router, App& app) {
  RouteOptions options;
  options.allowed_before_payment = true;
  router.add("GET", "/v1/pricing", options, [&app](ApiRequest&) {
    db::Session sql(app.db);
    auto prices =
        queryJson(*sql,
                  "SELECT jsonb_build_object('currency', 'CAD', 'prices', COALESCE(jsonb_agg("
                  "jsonb_build_object('code', code, 'cents', cents, 'unit', unit, 'description', "
                  "description) "
                  "ORDER BY code), '[]'::jsonb))::text FROM prices");
    return ApiResponse::json(200, *prices);
  });
}

}  // namespace smsgw::api
