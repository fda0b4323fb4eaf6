// The authorization endpoint (OAuth 2.1 4.1.1): GET shows the consent page, POST takes its
// form. The form carries the authorization request back, so both check it alike and nothing
// is kept between them. CSRF: the page sets a random cookie and the form carries its HMAC; a
// POST without both (another site's form, an old page) is refused.
#include "adapters/oauth_redirect.h"
#include "api/http/edge_request.h"
#include "api/http/error_body.h"
#include "api/http/presented_key.h"
#include "api/routes/consent_page.h"
#include "api/routes/routes.h"
#include "domain/crypto.h"
#include "domain/errors.h"
#include "services/oauth/authorization.h"

namespace smsgw::api {
namespace {

// The consent form's CSRF cookie: __Host- over HTTPS, as the dashboard's (domain/
// dashboard_session.h says why), which asks for Path=/.
std::string csrfCookieName(const ApiConfig& config) {
  return config.secureCookies() ? "__Host-smsgw_oauth_csrf" : "smsgw_oauth_csrf";
}
// The request's own parameters, echoed back by the form; anything else a form sends is ignored.
constexpr const char* kRequestParameters[] = {
    "response_type",         "client_id", "redirect_uri", "state", "code_challenge",
    "code_challenge_method", "scope",     "resource"};

std::map<std::string, std::string> requestParameters(const std::map<std::string, std::string>& in) {
  std::map<std::string, std::string> out;
  for (const char* name : kRequestParameters) {
    if (auto it = in.find(name); it != in.end()) out[name] = it->second;
  }
  return out;
}

// The page is never framed (clickjacking), cached, or told where it was linked from.
ApiResponse page(int status, std::string html) {
  ApiResponse response = ApiResponse::html(status, std::move(html));
  response.headers.emplace_back("X-Frame-Options", "DENY");
  response.headers.emplace_back("Content-Security-Policy",
                                "default-src 'none'; style-src 'unsafe-inline'; "
                                "frame-ancestors 'none'; base-uri 'none'");
  response.headers.emplace_back("Cache-Control", "no-store");
  response.headers.emplace_back("Referrer-Policy", "no-referrer");
  return response;
}

// Our own words among the details (the reason, the parameter named), never the rest: a value
// could be what a stranger's metadata document said.
std::string ownWordsOf(const nlohmann::json& details) {
  std::string words;
  for (const char* field : {"reason", "parameter"}) {
    if (!details.is_object() || !details.contains(field) || !details[field].is_string()) continue;
    words += (words.empty() ? "" : ", ") + details[field].get<std::string>();
  }
  return words.empty() ? "" : " (" + words + ")";
}

ApiResponse refusalPage(const ApiError& error, Language language) {
  const ErrorInfo& info = errorInfo(error.code());
  std::string detail = ownWordsOf(error.details());
  return page(info.http_status == 401 ? 400 : info.http_status,
              renderRefusalPage(std::string(info.message_en) + detail,
                                std::string(info.message_fr) + detail, language));
}

std::optional<std::string> cookie(const ApiRequest& req, std::string_view name) {
  std::string header = req.header("cookie").value_or("");
  size_t at = 0;
  while (at < header.size()) {
    size_t end = std::min(header.find(';', at), header.size());
    std::string_view pair(header.data() + at, end - at);
    while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
    if (pair.starts_with(name) && pair.size() > name.size() && pair[name.size()] == '=')
      return std::string(pair.substr(name.size() + 1));
    at = end + 1;
  }
  return std::nullopt;
}

std::string csrfToken(const ApiConfig& config, const std::string& cookie_value) {
  return crypto::hex(crypto::hmacSha256(config.oauth_form_secret, "consent:" + cookie_value));
}

bool wellFormedCookie(const std::string& value) {
  return value.size() == 64 && value.find_first_not_of("0123456789abcdef") == std::string::npos;
}

oauth::ProtectedResources resourcesOf(const ApiConfig& config) {
  return {config.public_base_url + "/mcp", config.public_base_url};
}

// OAuth 2.1 4.1.2: the answer goes back through the checked redirect URI, with the state and
// the issuer (RFC 9207, so a client talking to several servers knows which one answered).
ApiResponse backToClient(const ApiConfig& config, const oauth::AuthorizationRequest& request,
                         std::vector<std::pair<std::string, std::string>> parameters) {
  if (request.state) parameters.emplace_back("state", *request.state);
  parameters.emplace_back("iss", config.public_base_url);
  return ApiResponse::seeOther(oauth::redirectWith(request.redirect_uri, parameters));
}

ApiResponse errorToClient(const ApiConfig& config, const oauth::AuthorizationRequest& request,
                          const ApiError& error) {
  return backToClient(config, request,
                      {{"error", oauthErrorName(error.code())},
                       {"error_description", std::string(errorInfo(error.code()).message_en)}});
}

// The client and its redirect URI are checked first: until they are, nothing may go to that
// URI, so their failure is a page (OAuth 2.1 4.1.2.1). Then `answer` runs, and the request's
// other failures go back to the client.
template <typename Answer>
ApiResponse forCheckedClient(App& app, const ApiRequest& req,
                             const std::map<std::string, std::string>& parameters, Answer answer) {
  oauth::AuthorizationRequest request;
  try {
    request =
        oauth::checkClientAndRedirect(app.db, app.client_documents, parameters,
                                      app.config.allow_private_webhook_targets, app.clock.now());
  } catch (const ApiError& e) {
    return refusalPage(e, req.language);
  }
  try {
    return answer(request);
  } catch (const ApiError& e) {
    return errorToClient(app.config, request, e);
  }
}

ConsentPage consentPageFor(const oauth::AuthorizationRequest& request,
                           const std::map<std::string, std::string>& parameters,
                           std::string csrf_token) {
  ConsentPage consent;
  consent.client_name = request.client.name;
  consent.client_id = request.client.id;
  consent.self_registered = request.client.self_registered;
  consent.redirect_uri = request.redirect_uri;
  consent.request = parameters;
  consent.csrf_token = std::move(csrf_token);
  consent.requested = request.requested;
  return consent;
}

ApiResponse showConsent(App& app, ApiRequest& req) {
  // The query as a browser's form encodes it: '+' is a space (a scope's separator). A repeated
  // parameter answers 400 (OAuth 2.1 3.1), in OAuth's shape: nothing is known to redirect to.
  auto parameters = requestParameters(formFields(req.raw_query, "query"));
  return forCheckedClient(app, req, parameters, [&](oauth::AuthorizationRequest& request) {
    oauth::checkRequestParameters(request, parameters, resourcesOf(app.config));
    std::string cookie_value = cookie(req, csrfCookieName(app.config)).value_or("");
    if (!wellFormedCookie(cookie_value)) cookie_value = crypto::hex(crypto::randomBytes(32));
    ConsentPage consent = consentPageFor(request, parameters, csrfToken(app.config, cookie_value));
    ApiResponse response = page(200, renderConsentPage(consent, req.language));
    bool secure = app.config.secureCookies();
    response.headers.emplace_back(
        "Set-Cookie", csrfCookieName(app.config) + "=" + cookie_value +
                          "; Path=" + (secure ? "/" : "/oauth/authorize") +
                          "; HttpOnly; SameSite=Strict; Max-Age=3600" + (secure ? "; Secure" : ""));
    return response;
  });
}

// What the owner ticked: each box names a resource and carries its letters.
Permissions tickedPermissions(const std::map<std::string, std::string>& form) {
  nlohmann::json letters = nlohmann::json::object();
  for (const auto& [name, value] : form) {
    if (name.starts_with("perm_")) letters[name.substr(5)] = value;
  }
  try {
    return Permissions::fromJson(letters);
  } catch (const ApiError&) {
    throw ApiError(ErrorCode::OAUTH_INVALID_SCOPE);  // a box no page of ours shows
  }
}

ApiResponse takeConsent(App& app, ApiRequest& req) {
  auto parameters = requestParameters(req.form);
  return forCheckedClient(app, req, parameters, [&](oauth::AuthorizationRequest& request) {
    auto presented = req.form.find("csrf_token");
    std::string cookie_value = cookie(req, csrfCookieName(app.config)).value_or("");
    if (presented == req.form.end() || !wellFormedCookie(cookie_value) ||
        !crypto::constantTimeEquals(presented->second, csrfToken(app.config, cookie_value)))
      return page(403, renderRefusalPage(
                           "This form was not sent from the consent page, or the page is too "
                           "old. Go back to the app and start again.",
                           "Ce formulaire n'a pas été envoyé depuis la page de consentement, ou "
                           "la page est trop ancienne. Retournez à l'application et recommencez.",
                           req.language));
    oauth::checkRequestParameters(request, parameters, resourcesOf(app.config));
    if (req.form["decision"] != "approve") throw ApiError(ErrorCode::OAUTH_ACCESS_DENIED);
    auto mode = keyModeFromString(req.form["mode"]);
    if (!mode) throw ApiError(ErrorCode::OAUTH_INVALID_REQUEST, {{"parameter", "mode"}});
    oauth::Approval approval{req.form["email"], req.form["password"],
                             browserTokenIn(req, app.config.secureCookies()), *mode,
                             tickedPermissions(req.form)};
    oauth::Approved approved = oauth::approve(app.db, request, approval, app.clock.now());
    if (!approved.code) {
      ConsentPage again = consentPageFor(request, parameters, presented->second);
      again.email = approval.email;
      again.wrong_credentials = true;
      if (approved.locked_for)
        again.locked_for_minutes = static_cast<int>((approved.locked_for->count() + 59) / 60);
      return page(200, renderConsentPage(again, req.language));
    }
    return backToClient(app.config, request, {{"code", *approved.code}});
  });
}

}  // namespace

void addOAuthAuthorizeRoutes(Router& router, App& app) {
  RouteOptions open;
  open.authenticated = false;
  open.limited_per_address = true;
  open.errors = ErrorDialect::OAuth;
  // The GET may fetch a client's metadata document; the POST hashes a password.
  router.add("GET", "/oauth/authorize", onSlowLane(open),
             [&app](ApiRequest& r) { return showConsent(app, r); });
  RouteOptions form = onSlowLane(open);
  form.accepts_form = true;
  router.add("POST", "/oauth/authorize", form,
             [&app](ApiRequest& r) { return takeConsent(app, r); });
}

}  // namespace smsgw::api
