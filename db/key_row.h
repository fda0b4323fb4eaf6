#pragma once
// The row of the SQL function api_key_caller, read as one JSON text column so every reader
// (the HTTP edge's authentication, a send confirming its cached caller in the same round trip)
// parses it alike: null when the key does not exist. In a joined query the hash is bound as
// :key_hash, then the time as :key_now.

namespace smsgw::db {

inline constexpr const char* kKeyRowColumn = "row_to_json(k)::text";
inline constexpr const char* kKeyRowJoin =
    "LEFT JOIN api_key_caller(:key_hash, :key_now::timestamptz) k ON true";

}  // namespace smsgw::db
