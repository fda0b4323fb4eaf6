#pragma once
// What the routes share to read and check resources: the JSON readers of db/json_rows.h, and
// the ownership rules.

#include <soci/session.h>

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "db/json_rows.h"
#include "domain/ownership.h"

namespace smsgw::api {

using db::kMessageJson;
using db::queryJson;
using db::queryJsonArray;

// One page of the caller's records (db::pageOfRecords for the caller's account and mode).
nlohmann::json pageOfRecords(soci::session& sql, const std::string& select,
                             const struct ApiRequest& req, int limit, int offset,
                             const std::map<std::string, std::string>& filters = {});

using smsgw::requireOwnedBy;  // domain/ownership.h

// /v1/accounts/{id}/…: the id must be the caller's own account, else 403 FORBIDDEN.
void requireOwnAccountPath(const struct ApiRequest& req);

}  // namespace smsgw::api
