// CASL consents: list, record, check (the one consent check also decides sends) and revoke.
// Email consents are not offered yet (501 EMAIL_COMING_SOON). Records made with a TEST key are
// TEST records and only ever count for TEST sends.
#include "api/routes/consent_fields.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/errors.h"
#include "services/compliance/registers.h"

namespace smsgw::api {
namespace {

// The phone_number of a query, or the email answer when the caller asked about an address.
std::string queryPhoneOrRefuseEmail(const ApiRequest& req, bool required) {
  std::string phone = queryNumberText(req, "phone_number");
  std::string email = queryValue(req, "email_address");
  if (required && phone.empty() == email.empty()) {
    throw validationError("phone_number", "give exactly one of phone_number and email_address");
  }
  if (!email.empty()) refuseEmailChannel(email, "email_address");
  return phone.empty() ? "" : queryPhone(req, "phone_number");
}

ApiResponse list(App& app, ApiRequest& req) {
  std::string phone = queryPhoneOrRefuseEmail(req, false);
  std::string status = queryValue(req, "status");
  for (auto& c : status) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (!status.empty() && status != "ACTIVE" && status != "EXPIRED" && status != "REVOKED") {
    throw validationError("status", "must be ACTIVE, EXPIRED or REVOKED");
  }
  Page page = queryPage(req);
  return ApiResponse::json(200, {{"data", compliance::consentPage(app.db, req.who(), phone, status,
                                                                  page.limit, page.offset())}});
}

ApiResponse create(App& app, ApiRequest& req) {
  auto draft = readConsentFields(requireObjectBody(req), app.clock.now());
  compliance::recordApiConsent(app.db, req.who(), draft);
  return ApiResponse::json(
      201, {{"status", "ACTIVE"},
            {"phone_number", draft.phone_number},
            {"email_address", nullptr},
            {"consent_type", draft.consent_type},
            {"expires_at", draft.expires_at ? nlohmann::json(formatIso(*draft.expires_at))
                                            : nlohmann::json(nullptr)}});
}

ApiResponse check(App& app, ApiRequest& req) {
  std::string phone = queryPhoneOrRefuseEmail(req, true);
  std::optional<std::string> from;
  if (std::string from_number = queryPhone(req, "from_number"); !from_number.empty())
    from = from_number;
  auto decision = compliance::checkConsentNow(app.db, req.who(), phone, from, app.clock.now());
  nlohmann::json body = {{"phone_number", phone}, {"allowed", decision.allowed}};
  if (decision.allowed) {
    body["consentType"] = decision.consent_type;
  } else {
    body["reason"] = decision.reason;
  }
  return ApiResponse::json(200, body);
}

ApiResponse revokePhone(App& app, ApiRequest& req) {
  std::string phone = requirePhone(req.params.at("phone"), "phone").str();
  compliance::revokeApiConsents(app.db, req.who(), phone, app.clock.now());
  return ApiResponse::noContent();
}

}  // namespace

void addConsentRoutes(Router& router, App& app) {
  router.add("GET", "/v1/compliance/consents", needs("compliance:r"),
             [&app](ApiRequest& r) { return list(app, r); });
  router.add("POST", "/v1/compliance/consents", needs("compliance:w"),
             [&app](ApiRequest& r) { return create(app, r); });
  router.add("GET", "/v1/compliance/consents/check", needs("compliance:r"),
             [&app](ApiRequest& r) { return check(app, r); });
  router.add("DELETE", "/v1/compliance/consents/{phone}", needs("compliance:md"),
             [&app](ApiRequest& r) { return revokePhone(app, r); });
  router.add(
      "DELETE", "/v1/compliance/consents/email/{address}", needs("compliance:md"),
      [](ApiRequest& r) -> ApiResponse { refuseEmailChannel(r.params.at("address"), "address"); });
}

}  // namespace smsgw::api
