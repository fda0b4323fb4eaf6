#pragma once
// The rule of /v1/accounts/{id}/… routes: the path names the caller's own account.

namespace smsgw::api {

struct ApiRequest;

// The id must be the caller's own account, else 403 FORBIDDEN.
void requireOwnAccountPath(const ApiRequest& req);

}  // namespace smsgw::api
