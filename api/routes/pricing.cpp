// GET /v1/pricing: the price table (services/accounts/price_table.h).
#include "api/routes/routes.h"
#include "services/accounts/price_table.h"

namespace smsgw::api {

void addPricingRoutes(Router& router, App& app) {
  RouteOptions options;
  options.allowed_before_payment = true;
  router.add("GET", "/v1/pricing", options,
             [&app](ApiRequest&) { return ApiResponse::json(200, accounts::priceTable(app.db)); });
}

}  // namespace smsgw::api
