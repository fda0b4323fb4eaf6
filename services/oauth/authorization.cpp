#include "services/oauth/authorization.h"

#include <soci/soci.h>

#include "adapters/oauth_redirect.h"
#include "domain/crypto.h"
#include "domain/errors.h"
#include "domain/oauth_scope.h"
#include "domain/pkce.h"
#include "services/accounts/password_guard.h"

namespace smsgw::oauth {
namespace {

constexpr std::chrono::seconds kCodeLife{60};

std::optional<std::string> parameter(const std::map<std::string, std::string>& parameters,
                                     const char* name) {
  auto it = parameters.find(name);
  if (it == parameters.end() || it->second.empty()) return std::nullopt;
  return it->second;
}

ApiError invalidRequest(const char* parameter_name, const char* problem) {
  return ApiError(ErrorCode::OAUTH_INVALID_REQUEST,
                  {{"parameter", parameter_name}, {"problem", problem}});
}

}  // namespace

AuthorizationRequest checkClientAndRedirect(db::Database& db, ClientMetadataFetcher& documents,
                                            const std::map<std::string, std::string>& parameters,
                                            bool allow_loopback, TimePoint now) {
  auto client_id = parameter(parameters, "client_id");
  if (!client_id) throw ApiError(ErrorCode::OAUTH_INVALID_CLIENT, {{"reason", "missing"}});
  AuthorizationRequest request;
  request.client = findClient(db, documents, *client_id, allow_loopback, now);
  auto redirect_uri = parameter(parameters, "redirect_uri");
  if (!redirect_uri) throw invalidRequest("redirect_uri", "is required");
  for (const auto& registered : request.client.redirect_uris) {
    if (redirectUriMatches(registered, *redirect_uri)) request.redirect_uri = *redirect_uri;
  }
  if (request.redirect_uri.empty())
    throw ApiError(ErrorCode::OAUTH_INVALID_REQUEST, {{"reason", "redirect_uri_mismatch"}});
  request.state = parameter(parameters, "state");
  return request;
}

void checkRequestParameters(AuthorizationRequest& request,
                            const std::map<std::string, std::string>& parameters,
                            const ProtectedResources& resources) {
  if (parameter(parameters, "response_type") != "code")
    throw ApiError(ErrorCode::OAUTH_UNSUPPORTED_RESPONSE_TYPE);
  auto challenge = parameter(parameters, "code_challenge");
  if (!challenge) throw invalidRequest("code_challenge", "PKCE is required");
  // OAuth 2.1 7.5.2: S256 only; "plain" would let whoever sees the request redeem the code.
  if (parameter(parameters, "code_challenge_method") != "S256")
    throw invalidRequest("code_challenge_method", "must be S256");
  if (!wellFormedChallenge(*challenge))
    throw invalidRequest("code_challenge", "must be 43 base64url characters");
  request.code_challenge = *challenge;
  auto scope = parameter(parameters, "scope");
  auto requested = permissionsOfScope(scope.value_or(std::string(kDefaultScope)));
  if (!requested || requested->toJson().empty()) throw ApiError(ErrorCode::OAUTH_INVALID_SCOPE);
  request.requested = *requested;
  request.resource = parameter(parameters, "resource");
  if (request.resource && !resources.allows(*request.resource))
    throw ApiError(ErrorCode::OAUTH_INVALID_TARGET, {{"resource", *request.resource}});
}

Approved approve(db::Database& db, const AuthorizationRequest& request, const Approval& approval,
                 TimePoint now) {
  if (!approval.permissions.isSubsetOf(request.requested) || approval.permissions.toJson().empty())
    throw ApiError(ErrorCode::OAUTH_INVALID_SCOPE);
  accounts::PasswordCheck owner = accounts::checkOwnerPassword(
      db, {approval.email, approval.password, approval.browser_token}, now);
  if (owner.outcome == accounts::PasswordCheck::Outcome::Locked)
    return {std::nullopt, owner.retry_after};
  if (owner.outcome != accounts::PasswordCheck::Outcome::Matches) return {};
  const std::string& account_id = owner.account_id;
  if (isHeld(owner.account_status)) {
    throw ApiError(ErrorCode::OAUTH_ACCESS_DENIED,
                   {{"reason", "account_" + std::string(toString(owner.account_status))}});
  }

  db::Session sql(db);
  std::string code = "moc_" + crypto::hex(crypto::randomBytes(32));
  std::string code_hash = crypto::sha256Hex(code), mode(toString(approval.mode));
  std::string permissions = approval.permissions.toJson().dump(), at = formatIso(now);
  std::string resource = request.resource.value_or("");
  soci::indicator resource_ind = request.resource ? soci::i_ok : soci::i_null;
  long long life = kCodeLife.count();
  *sql << "INSERT INTO oauth_codes (code_hash, client_id, account_id, mode, permissions, resource, "
          "redirect_uri, code_challenge, expires_at) VALUES (:hash, :client, :account, :mode, "
          ":permissions::jsonb, :resource, :redirect, :challenge, "
          ":now::timestamptz + make_interval(secs => :life))",
      soci::use(code_hash), soci::use(request.client.id), soci::use(account_id), soci::use(mode),
      soci::use(permissions), soci::use(resource, resource_ind), soci::use(request.redirect_uri),
      soci::use(request.code_challenge), soci::use(at), soci::use(life);
  return {code, std::nullopt};
}

}  // namespace smsgw::oauth
