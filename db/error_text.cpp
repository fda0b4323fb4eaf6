#include "db/error_text.h"

#include <soci/postgresql/soci-postgresql.h>
#include <soci/soci.h>

#include <string_view>

namespace smsgw::db {

std::string describeError(const std::exception& error) {
  const auto* sql_error = dynamic_cast<const soci::soci_error*>(&error);
  if (!sql_error) return error.what();
  std::string text = sql_error->get_error_message();  // without SOCI's statement and values
  text = text.substr(0, text.find('\n'));             // without PostgreSQL's DETAIL lines
  // "invalid input syntax for type uuid: "…"": the value is the client's.
  if (size_t colon = text.rfind(": \""); colon != std::string::npos && text.ends_with('"'))
    text = text.substr(0, colon) + ": \"…\"";
  if (const auto* pg = dynamic_cast<const soci::postgresql_soci_error*>(&error))
    text += " (SQLSTATE " + pg->sqlstate() + ")";
  return text;
}

bool isTransient(const std::exception& error) {
  // SQLSTATE class 08 (connection exception) and 57P01-57P03: the server shut down, crashed or
  // is starting up, whatever category SOCI gave the failure.
  if (const auto* pg = dynamic_cast<const soci::postgresql_soci_error*>(&error)) {
    const std::string& state = pg->sqlstate();
    if (state.starts_with("08") || state == "57P01" || state == "57P02" || state == "57P03")
      return true;
  }
  const auto* sql_error = dynamic_cast<const soci::soci_error*>(&error);
  if (!sql_error) return false;
  // A new connection refused: SOCI throws it without a category.
  if (std::string_view(sql_error->what()).starts_with("Cannot establish connection")) return true;
  switch (sql_error->get_error_category()) {
    case soci::soci_error::connection_error:
    case soci::soci_error::unknown_transaction_state:
    case soci::soci_error::system_error:
      return true;
    default:
      return false;
  }
}

bool isDataError(const std::exception& error) {
  const auto* pg = dynamic_cast<const soci::postgresql_soci_error*>(&error);
  return pg && pg->sqlstate().starts_with("22");
}

}  // namespace smsgw::db
