// POST /v1/accounts/{id}/top-ups (services/accounts/top_ups.h).
#include "services/accounts/top_ups.h"

#include "api/routes/account_path.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/errors.h"

namespace smsgw::api {
namespace {

ApiResponse createTopUp(App& app, ApiRequest& req) {
  requireOwnAccountPath(req);
  if (!req.who().live()) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  const auto& body = requireObjectBody(req);
  long long amount =
      requireInteger(body, "amount_cents", accounts::kMinTopUpCents, accounts::kMaxTopUpCents);
  std::string token = requireString(body, "payment_token", 200);
  std::string idempotency_key = req.header("idempotency-key").value_or("");
  if (idempotency_key.size() > 255)
    throw validationError("Idempotency-Key", "must be at most 255 characters");
  accounts::TopUpServices services{app.db, app.payments, app.clock};
  return ApiResponse::json(
      201, accounts::topUp(services, req.who().account_id, amount, token, idempotency_key));
}

}  // namespace

void addTopUpRoutes(Router& router, App& app) {
  RouteOptions options = onSlowLane(needs("account:w"));  // waits on the payment provider
  options.allowed_before_payment = true;
  router.add("POST", "/v1/accounts/{id}/top-ups", options,
             [&app](ApiRequest& r) { return createTopUp(app, r); });
}

}  // namespace smsgw::api
