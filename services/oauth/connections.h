#pragma once
// The account's connected apps: its OAuth grants still in force, and the owner's way to end one
// (with everything it holds: its tokens, its access keys, the webhook endpoints they
// registered; db/procedures/end_oauth_grant.h). A caller sees and ends the grants of its own
// mode; a connected app's own token may do neither (it could end its rivals).

#include <nlohmann/json.hpp>
#include <string>

#include "db/database.h"
#include "domain/caller.h"
#include "domain/clock.h"

namespace smsgw::oauth {

// [{id, client_id, client_name, client_uri, mode, permissions, resource, created_at,
// refresh_expires_at}], newest first. Throws ApiError FORBIDDEN (oauth_token_cannot_manage_apps).
nlohmann::json listConnections(db::Database& db, const Caller& caller, TimePoint now);

// Throws ApiError NOT_FOUND (none, or already ended), FORBIDDEN (another account's, or a
// connected app's token) or LIVE_KEY_REQUIRED (a TEST caller and a LIVE grant).
void endConnection(db::Database& db, const Caller& caller, const std::string& grant_id,
                   TimePoint now);

}  // namespace smsgw::oauth
