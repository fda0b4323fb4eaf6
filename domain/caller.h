#pragma once
// Who is calling: the API key's account, mode, permissions and fences, resolved by the HTTP
// edge before any route runs and handed to the services that act for it. A pure type.

#include <optional>
#include <string>

#include "domain/account_status.h"
#include "domain/api_key.h"
#include "domain/permissions.h"

namespace smsgw {

struct Caller {
  std::string account_id;
  std::string key_id;
  KeyMode mode = KeyMode::Test;
  Permissions permissions;
  AccountStatus account_status = AccountStatus::Active;
  bool fenced = false;  // default-deny or allow/deny lists (KEY_FENCED rules)
  // default-deny or an ALLOW list: a recipient must be on the ALLOW list (ALLOW_LIST_BLOCKED)
  bool allow_list_required = false;
  std::optional<std::string> allow_list_id;  // default-deny without one: nobody is allowed
  std::optional<std::string> deny_list_id;   // a recipient on it is refused (DENY_LIST_BLOCKED)
  std::optional<int> requests_per_second;    // the account's own rate; unset: the platform's
  // An OAuth access token's resource (RFC 8707), which it serves alone; unset: any (a key made
  // with POST /v1/api-keys, or a connection approved for the whole API).
  std::optional<std::string> resource;
  // The OAuth grant whose access token this key is; unset: a key the owner made. What a grant's
  // token registers (webhook endpoints) belongs to the grant and ends with it, and it may not
  // make keys at all (docs/oauth.md "What a connection can leave behind").
  std::optional<std::string> oauth_grant_id;
  // A dashboard session's key (docs/dashboard.md): it makes keys only with the password again,
  // and what it records comes from the dashboard (a consent batch's source).
  bool dashboard_session = false;

  bool live() const { return mode == KeyMode::Live; }
  bool operator==(const Caller&) const = default;
};

}  // namespace smsgw
