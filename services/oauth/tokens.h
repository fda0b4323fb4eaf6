#pragma once
// The token endpoint's grants and revocation (OAuth 2.1 4.1.3 and 4.3, RFC 7009). A grant is
// one connection of one client to one account: it holds one API key at a time (the access
// token, with an expiry) and one refresh token; each refresh replaces both. A code is good
// once; presented again, it revokes the grant it made. A refresh token a rotation replaced,
// presented again, revokes its grant too (OAuth 2.1 4.3.1: it must have leaked).

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "db/database.h"
#include "domain/clock.h"

namespace smsgw::oauth {

struct TokenLifetimes {
  std::chrono::seconds access;
  std::chrono::seconds refresh;
};

// The token response ({access_token, token_type, expires_in, refresh_token, scope}) for a form
// posted to the token endpoint. Throws ApiError OAUTH_INVALID_REQUEST, OAUTH_INVALID_GRANT,
// OAUTH_INVALID_SCOPE, OAUTH_INVALID_TARGET or OAUTH_UNSUPPORTED_GRANT_TYPE.
nlohmann::json issueTokens(db::Database& db, const std::map<std::string, std::string>& form,
                           const TokenLifetimes& lifetimes, TimePoint now);

// RFC 7009: ends the grant an access or refresh token of `client_id` belongs to. A token that
// is unknown, already revoked or another client's changes nothing, and is not an error.
void revokeToken(db::Database& db, const std::map<std::string, std::string>& form, TimePoint now);

// {id, name} of the client whose connection holds the key, or null (spec 'me' caller).
nlohmann::json connectedClientOfKey(db::Database& db, const std::string& key_id);

}  // namespace smsgw::oauth
