#pragma once
// What a log line may say about a failure. SOCI's message for a failed statement carries the
// statement and every value bound to it, and PostgreSQL's DETAIL lines repeat row values: phone
// numbers, idempotency keys, hashes, signing secrets. A log keeps the first line of the
// server's message, with a quoted value at its end masked, and the SQLSTATE.

#include <exception>
#include <string>

namespace smsgw::db {

std::string describeError(const std::exception& error);

}  // namespace smsgw::db
