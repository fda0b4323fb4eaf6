#pragma once
// Reading messages as the API renders them (the SQL function api_message). TEST and LIVE data
// stay apart: a message of the other mode is 404, another account's 403.

#include <nlohmann/json.hpp>
#include <string>

#include "db/database.h"
#include "domain/caller.h"

namespace smsgw::messaging {

nlohmann::json message(db::Database& db, const Caller& caller, const std::string& id);

// Filters of the list; an empty one means "any". Checked by the caller.
struct MessageFilter {
  std::string status;     // QUEUED, … RECEIVED
  std::string direction;  // OUTBOUND or INBOUND
  std::string to;
  std::string from;
  std::string created_after;   // ISO 8601 date-time, inclusive
  std::string created_before;  // ISO 8601 date-time, exclusive
};
// Newest first: {data, meta: {page, limit, total, pages}} (the messages family's pagination).
nlohmann::json messagePage(db::Database& db, const Caller& caller, const MessageFilter& filter,
                           int page, int limit);

}  // namespace smsgw::messaging
