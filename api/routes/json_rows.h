#pragma once
// Reading resources rendered by the SQL api_* functions (db/migrations).

#include <soci/session.h>

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace smsgw::api {

// One message as the API renders it (Message); bind the id.
inline constexpr const char* kMessageJson =
    "SELECT api_message(m)::text FROM messages m WHERE m.id = :id";

// Runs a query whose single column is JSON text; one result or none.
std::optional<nlohmann::json> queryJson(soci::session& sql, const std::string& query,
                                        const std::string& param);
// The same for a query without parameters.
std::optional<nlohmann::json> queryJson(soci::session& sql, const std::string& query);
// All rows of such a query, in order, as a JSON array.
nlohmann::json queryJsonArray(soci::session& sql, const std::string& query,
                              const std::string& param);

// One page of the caller's records: `select` renders one JSON row per record and names the
// parameters :account, :mode, :limit and :offset, plus one per filter (an empty filter value
// means "any"; each name may appear several times). Returns the rows in order.
nlohmann::json pageOfRecords(soci::session& sql, const std::string& select,
                             const struct ApiRequest& req, int limit, int offset,
                             const std::map<std::string, std::string>& filters = {});

// The account id owning a row, for the 404-versus-403 rule: another account's id is 403.
void requireOwnedBy(const std::optional<std::string>& owner, const std::string& account_id);

// /v1/accounts/{id}/…: the id must be the caller's own account, else 403 FORBIDDEN.
void requireOwnAccountPath(const struct ApiRequest& req);

}  // namespace smsgw::api
