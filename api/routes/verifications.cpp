// SMS verifications (services/verifications/verifications.h). The request is read here:
// `phone_number` and `from` Canadian E.164, `app_name` up to 30 characters (it is texted),
// `code_length` 4 to 10 (6 by default); a check's `code` is text of up to 20 characters.
#include "services/verifications/verifications.h"

#include "api/routes/address_book_fields.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/errors.h"

namespace smsgw::api {
namespace {

constexpr size_t kMaxAppNameLength = 30;

E164 canadian(const std::string& value, const char* field) {
  E164 number = requirePhone(value, field);
  if (!isCanadianNumber(number)) {
    throw ApiError(ErrorCode::NON_CANADIAN_NUMBER,
                   nlohmann::json::array({{{"field", field}, {"message", "must be Canadian"}}}));
  }
  return number;
}

verifications::VerificationServices services(App& app,
                                             const verifications::VerificationSettings& settings) {
  return {app.db, app.relay, app.clock, app.config.send_policy, settings};
}

verifications::VerificationSettings settingsOf(const App& app) {
  return {app.config.verification_code_secret, app.config.platform_sender};
}

ApiResponse start(App& app, ApiRequest& req) {
  const auto& body = requireObjectBody(req);
  requireOnlyFields(body, {"phone_number", "from", "app_name", "code_length"});
  verifications::NewVerification request{
      canadian(requireString(body, "phone_number", 20), "phone_number"), std::nullopt,
      optionalString(body, "app_name", kMaxAppNameLength), 6};
  if (auto from = optionalString(body, "from", 20)) request.from = canadian(*from, "from");
  if (request.app_name && request.app_name->empty()) request.app_name.reset();
  if (body.contains("code_length") && !body["code_length"].is_null())
    request.code_length = static_cast<int>(requireInteger(body, "code_length", 4, 10));
  auto settings = settingsOf(app);
  return ApiResponse::json(
      201, verifications::startVerification(services(app, settings), req.who(), request));
}

ApiResponse check(App& app, ApiRequest& req) {
  const auto& body = requireObjectBody(req);
  requireOnlyFields(body, {"code"});
  std::string code = requireString(body, "code", 20);
  auto settings = settingsOf(app);
  return ApiResponse::json(200, verifications::checkVerification(services(app, settings), req.who(),
                                                                 req.params.at("id"), code));
}

ApiResponse get(App& app, ApiRequest& req) {
  return ApiResponse::json(
      200, verifications::verification(app.db, req.who(), req.params.at("id"), app.clock.now()));
}

ApiResponse list(App& app, ApiRequest& req) {
  int limit = queryInteger(req, "limit", 20, 1, 100);
  int offset = queryInteger(req, "offset", 0, 0, 1'000'000);
  return ApiResponse::json(
      200, verifications::verificationPage(app.db, req.who(), limit, offset, app.clock.now()));
}

}  // namespace

void addVerificationRoutes(Router& router, App& app) {
  router.add("POST", "/v1/verifications", needs("verifications:w"),
             [&app](ApiRequest& r) { return start(app, r); });
  router.add("GET", "/v1/verifications", needs("verifications:r"),
             [&app](ApiRequest& r) { return list(app, r); });
  router.add("GET", "/v1/verifications/{id}", needs("verifications:r"),
             [&app](ApiRequest& r) { return get(app, r); });
  router.add("POST", "/v1/verifications/{id}/check", needs("verifications:m"),
             [&app](ApiRequest& r) { return check(app, r); });
}

}  // namespace smsgw::api
