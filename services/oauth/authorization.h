#pragma once
// The authorization request (OAuth 2.1 4.1.1): checked when the consent page is shown and
// again when its form comes back (the form carries the request, so nothing is kept between
// the two), then turned into a single-use code when the account owner approves.

#include <chrono>
#include <map>
#include <optional>
#include <string>

#include "db/database.h"
#include "domain/api_key.h"
#include "domain/clock.h"
#include "domain/permissions.h"
#include "services/oauth/clients.h"

namespace smsgw::oauth {

// What this server protects, for `resource` (RFC 8707): the MCP endpoint and the REST API.
struct ProtectedResources {
  std::string mcp;       // {base}/mcp
  std::string rest_api;  // {base}
  bool allows(const std::string& resource) const { return resource == mcp || resource == rest_api; }
};

struct AuthorizationRequest {
  Client client;
  std::string redirect_uri;
  std::optional<std::string> state;
  std::string code_challenge;
  Permissions requested;
  std::optional<std::string> resource;
};

// The client and the redirect URI, which must be checked before anything is sent to that URI:
// a failure here is shown to the user, never redirected (OAuth 2.1 4.1.2.1). Throws ApiError
// OAUTH_INVALID_CLIENT or OAUTH_INVALID_REQUEST (details.reason redirect_uri_mismatch).
AuthorizationRequest checkClientAndRedirect(db::Database& db, ClientMetadataFetcher& documents,
                                            const std::map<std::string, std::string>& parameters,
                                            bool allow_loopback, TimePoint now);
// The rest of the request: response_type code, PKCE S256, scope, resource. Throws ApiError
// (an OAUTH_ code the client is told through its redirect URI).
void checkRequestParameters(AuthorizationRequest& request,
                            const std::map<std::string, std::string>& parameters,
                            const ProtectedResources& resources);

struct Approval {
  std::string email;
  std::string password;
  // The proven-browser cookie's token, when the consent page's browser holds one: its count,
  // not the email's, decides a lock (services/accounts/password_guard.h).
  std::optional<std::string> browser_token;
  KeyMode mode = KeyMode::Test;
  Permissions permissions;  // what the owner ticked: never more than the request's scope
};

struct Approved {
  std::optional<std::string> code;  // none: the email and password do not match an account
  // Too many wrong passwords for that email (services/accounts/password_guard.h): the password
  // was not even checked; it may be tried again after this.
  std::optional<std::chrono::seconds> locked_for;
};

// The code for an approval. Throws ApiError OAUTH_INVALID_SCOPE (more than requested) or
// OAUTH_ACCESS_DENIED (a suspended or closed account).
Approved approve(db::Database& db, const AuthorizationRequest& request, const Approval& approval,
                 TimePoint now);

}  // namespace smsgw::oauth
