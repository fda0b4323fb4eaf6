// POST /v1/accounts/{id}/phone-verification: without `code` a code is texted, with it the code
// is checked (services/accounts/owner_phone.h).
#include "services/accounts/owner_phone.h"

#include "api/routes/account_path.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/errors.h"

namespace smsgw::api {
namespace {

ApiResponse phoneVerification(App& app, ApiRequest& req) {
  requireOwnAccountPath(req);
  if (!req.who().live()) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  const auto& body = requireObjectBody(req);
  E164 phone = requirePhone(requireString(body, "phone_number", 20), "phone_number");
  auto code = optionalString(body, "code", 20);
  accounts::OwnerPhoneSettings settings{app.config.verification_code_secret,
                                        app.config.owner_code_resend_seconds,
                                        app.config.platform_sender};
  accounts::OwnerPhoneServices services{app.db, app.carrier, settings};
  if (!code)
    return ApiResponse::json(
        202, accounts::sendOwnerCode(services, req.who().account_id, phone, app.clock.now()));
  return ApiResponse::json(200, accounts::confirmOwnerCode(services, req.who().account_id, phone,
                                                           *code, app.clock.now()));
}

}  // namespace

void addOwnerPhoneRoutes(Router& router, App& app) {
  RouteOptions options = onSlowLane(needs("account:m"));  // the code goes out through the carrier
  options.allowed_before_payment = true;
  router.add("POST", "/v1/accounts/{id}/phone-verification", options,
             [&app](ApiRequest& r) { return phoneVerification(app, r); });
}

}  // namespace smsgw::api
