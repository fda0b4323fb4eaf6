// OAuth 2.1's documents and endpoints other than the consent page (docs/oauth.md): the
// authorization server's metadata (RFC 8414), the MCP endpoint's protected-resource metadata
// (RFC 9728), registration (RFC 7591), the token endpoint and revocation (RFC 7009). Errors
// on /oauth/* take OAuth's shape (request_pipeline.cpp).
#include "api/routes/routes.h"
#include "domain/oauth_scope.h"
#include "services/oauth/clients.h"
#include "services/oauth/tokens.h"

namespace smsgw::api {
namespace {

nlohmann::json scopeWords(std::string_view scope) {
  nlohmann::json words = nlohmann::json::array();
  size_t at = 0;
  while (at < scope.size()) {
    size_t end = std::min(scope.find(' ', at), scope.size());
    words.push_back(std::string(scope.substr(at, end - at)));
    at = end + 1;
  }
  return words;
}

// Every resource with every letter: what a client may ask for. The owner approves less.
std::string everyScope() {
  return oauth::scopeOf(Permissions::everything());
}

ApiResponse authorizationServerMetadata(const ApiConfig& config) {
  const std::string& base = config.public_base_url;
  return ApiResponse::json(200, {{"issuer", base},
                                 {"authorization_endpoint", base + "/oauth/authorize"},
                                 {"token_endpoint", base + "/oauth/token"},
                                 {"registration_endpoint", base + "/oauth/register"},
                                 {"revocation_endpoint", base + "/oauth/revoke"},
                                 {"response_types_supported", {"code"}},
                                 {"response_modes_supported", {"query"}},
                                 {"grant_types_supported", {"authorization_code", "refresh_token"}},
                                 {"token_endpoint_auth_methods_supported", {"none"}},
                                 {"revocation_endpoint_auth_methods_supported", {"none"}},
                                 {"code_challenge_methods_supported", {"S256"}},
                                 {"scopes_supported", scopeWords(everyScope())},
                                 {"client_id_metadata_document_supported", true},
                                 {"authorization_response_iss_parameter_supported", true},
                                 {"ui_locales_supported", {"en", "fr"}}});
}

// RFC 9728: `resource` is the identifier the document's URL was built from.
ApiResponse protectedResourceMetadata(const ApiConfig& config, const std::string& resource,
                                      const char* name) {
  return ApiResponse::json(200, {{"resource", resource},
                                 {"authorization_servers", {config.public_base_url}},
                                 {"scopes_supported", scopeWords(oauth::kDefaultScope)},
                                 {"bearer_methods_supported", {"header"}},
                                 {"resource_name", name}});
}

ApiResponse registerClient(App& app, ApiRequest& req) {
  ApiResponse response = ApiResponse::json(
      201, oauth::registerClient(app.db, req.body, req.client_ip, app.clock.now()));
  response.headers.emplace_back("Cache-Control", "no-store");
  return response;
}

ApiResponse token(App& app, ApiRequest& req) {
  oauth::TokenLifetimes lifetimes{app.config.oauth_access_token_ttl,
                                  app.config.oauth_refresh_token_ttl};
  ApiResponse response =
      ApiResponse::json(200, oauth::issueTokens(app.db, req.form, lifetimes, app.clock.now()));
  response.headers.emplace_back("Cache-Control", "no-store");
  return response;
}

ApiResponse revoke(App& app, ApiRequest& req) {
  oauth::revokeToken(app.db, req.form, app.clock.now());
  return ApiResponse::json(200, nlohmann::json::object());
}

}  // namespace

void addOAuthRoutes(Router& router, App& app) {
  RouteOptions open;
  open.authenticated = false;
  const ApiConfig& config = app.config;
  router.add("GET", "/.well-known/oauth-authorization-server", open,
             [&config](ApiRequest&) { return authorizationServerMetadata(config); });
  router.add("GET", "/.well-known/oauth-protected-resource/mcp", open, [&config](ApiRequest&) {
    return protectedResourceMetadata(config, config.public_base_url + "/mcp", "SMS gateway (MCP)");
  });
  router.add("GET", "/.well-known/oauth-protected-resource", open, [&config](ApiRequest&) {
    return protectedResourceMetadata(config, config.public_base_url, "SMS gateway (REST API)");
  });

  RouteOptions limited = open;
  limited.limited_per_address = true;
  limited.errors = ErrorDialect::OAuth;
  router.add("POST", "/oauth/register", limited,
             [&app](ApiRequest& r) { return registerClient(app, r); });
  RouteOptions form = limited;
  form.accepts_form = true;
  router.add("POST", "/oauth/token", form, [&app](ApiRequest& r) { return token(app, r); });
  router.add("POST", "/oauth/revoke", form, [&app](ApiRequest& r) { return revoke(app, r); });
}

}  // namespace smsgw::api
