#pragma once
// Resolves an API key to its Caller. Throws ApiError UNAUTHORIZED or API_KEY_REVOKED.

#include <string>

#include "api/http/api_types.h"
#include "db/database.h"

namespace smsgw::api {

Caller authenticate(db::Database& db, const std::string& presented_key);

}  // namespace smsgw::api
