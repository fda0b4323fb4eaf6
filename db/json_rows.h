#pragma once
// Reading resources rendered by the SQL api_* functions (db/functions): each query's single
// column is JSON text.

#include <soci/session.h>

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace smsgw::db {

// One message as the API renders it (Message); bind the id.
inline constexpr const char* kMessageJson =
    "SELECT api_message(m)::text FROM messages m WHERE m.id = :id";

// One result or none.
std::optional<nlohmann::json> queryJson(soci::session& sql, const std::string& query,
                                        const std::string& param);
// The same for a query without parameters.
std::optional<nlohmann::json> queryJson(soci::session& sql, const std::string& query);
// All rows, in order, as a JSON array.
nlohmann::json queryJsonArray(soci::session& sql, const std::string& query,
                              const std::string& param);

// Text values bound by the names the query gives them (:name); a name may appear several times.
using NamedValues = std::map<std::string, std::string>;
// All rows, in order, as a JSON array, with every parameter bound by name.
nlohmann::json queryJsonArray(soci::session& sql, const std::string& query,
                              const NamedValues& values = {});

// What `count` (SELECT count(*) …) counts, every parameter bound by name.
long long countRows(soci::session& sql, const std::string& count, const NamedValues& values);

// One page of an account's records in one mode: `select` names the parameters :account,
// :mode, :limit and :offset, plus one per filter (an empty filter value means "any"; each name
// may appear several times). Returns the rows in order.
nlohmann::json pageOfRecords(soci::session& sql, const std::string& select,
                             const std::string& account_id, const std::string& mode, int limit,
                             int offset, const NamedValues& filters = {});

}  // namespace smsgw::db
