// Double opt-in confirmations from toll-free numbers (services/compliance/opt_in_requests.h):
// the request's fields are checked here.
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/errors.h"
#include "services/compliance/opt_in_requests.h"

namespace smsgw::api {
namespace {

ApiResponse create(App& app, ApiRequest& req) {
  const auto& body = requireObjectBody(req);
  E164 to = requirePhone(requireString(body, "to", 20), "to");
  if (!isCanadianNumber(to)) {
    throw ApiError(ErrorCode::NON_CANADIAN_NUMBER,
                   nlohmann::json::array({{{"field", "to"}, {"message", "must be Canadian"}}}));
  }
  E164 from = requirePhone(requireString(body, "from", 20), "from");
  if (!isTollFreeNumber(from)) {
    throw validationError("from", "must be one of the account's toll-free numbers");
  }
  std::string brand = requireString(body, "brand_name", 60);
  requireBrandName(brand, "brand_name");
  std::string language = optionalString(body, "language", 2).value_or("en");
  if (language != "en" && language != "fr") throw validationError("language", "must be en or fr");

  return ApiResponse::json(
      201, compliance::requestOptIn(app.db, app.relay, req.who(), {to, from, brand, language},
                                    app.clock.now()));
}

ApiResponse list(App& app, ApiRequest& req) {
  Page page = queryPage(req);
  return ApiResponse::json(200, {{"data", compliance::optInPage(app.db, req.who(), page.limit,
                                                                page.offset(), app.clock.now())}});
}

}  // namespace

void addOptInConfirmationRoutes(Router& router, App& app) {
  router.add("POST", "/v1/compliance/opt-in-confirmations", needs("compliance:w"),
             [&app](ApiRequest& r) { return create(app, r); });
  router.add("GET", "/v1/compliance/opt-in-confirmations", needs("compliance:r"),
             [&app](ApiRequest& r) { return list(app, r); });
}

}  // namespace smsgw::api
