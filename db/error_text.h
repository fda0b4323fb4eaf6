#pragma once
// What a failure from the database means, and what a log line may say about it. SOCI's
// message for a failed statement carries the statement and every value bound to it, and
// PostgreSQL's DETAIL lines repeat row values: phone numbers, idempotency keys, hashes,
// signing secrets. A log keeps the first line of the server's message, with a quoted value at
// its end masked, and the SQLSTATE.

#include <exception>
#include <string>

namespace smsgw::db {

std::string describeError(const std::exception& error);

// Whether a failure is the database being away (a lost connection, a transaction whose
// outcome is unknown, a system error) rather than anything about the work: worth waiting out.
bool isTransient(const std::exception& error);

// Whether PostgreSQL refused a value itself (SQLSTATE class 22, "data exception": text that is
// not UTF-8, a number out of range, a string too long): the same record fails the same way on
// every try, so it is set aside at once rather than tried again.
bool isDataError(const std::exception& error);

}  // namespace smsgw::db
