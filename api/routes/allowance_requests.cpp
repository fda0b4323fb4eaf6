// Allowance requests: an account asks for a higher phone-number limit
// (services/numbers/allowance_requests.h).
#include "services/numbers/allowance_requests.h"

#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/errors.h"

namespace smsgw::api {
namespace {

ApiResponse list(App& app, ApiRequest& req) {
  return ApiResponse::json(200,
                           {{"data", numbers::allowanceRequests(app.db, req.who().account_id)}});
}

ApiResponse create(App& app, ApiRequest& req) {
  if (!req.who().live()) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  const auto& body = requireObjectBody(req);
  int requested =
      static_cast<int>(requireInteger(body, "requested_limit", 1, numbers::kMaxRequestedLimit));
  std::string reason = requireString(body, "reason", 1000);
  return ApiResponse::json(201, numbers::requestAllowance(app.db, req.who().account_id, requested,
                                                          reason, app.clock.now()));
}

}  // namespace

void addAllowanceRequestRoutes(Router& router, App& app) {
  router.add("GET", "/v1/phone-numbers/allowance-requests", needs("phone_numbers:r"),
             [&app](ApiRequest& r) { return list(app, r); });
  router.add("POST", "/v1/phone-numbers/allowance-requests", needs("phone_numbers:w"),
             [&app](ApiRequest& r) { return create(app, r); });
}

}  // namespace smsgw::api
