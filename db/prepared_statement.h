#pragma once
// A hot statement PostgreSQL parses and plans once per connection, then only executes.
//
// SOCI sends `sql << text` as libpq's unnamed statement, which PostgreSQL parses and plans again
// on every call: 0.5–0.8 ms of PostgreSQL's CPU per message in ops/bench/pipeline-cost
// (pg_stat_statements' planning time), about a tenth of its statement time, most of it the
// relay's poll and the dispatcher's read. A PreparedStatement is sent with PQprepare the first
// time a connection runs it and with PQexecPrepared after, on the same connection the session
// holds, so it joins that session's transaction.
//
// Parameters and cells travel as text (PostgreSQL infers each parameter's type from the casts
// in the statement: write `$1::bigint`). Errors are SOCI's own postgresql_soci_error, with the
// SQLSTATE, as for every other statement.
//
// With prepared statements off (DB_PREPARED_STATEMENTS=false: a pooler in transaction mode,
// or a benchmark's other side) the same text runs unnamed, planned on every call.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace soci {
class session;
}

namespace smsgw::db {

using Cell = std::optional<std::string>;  // nullopt: SQL NULL
using Row = std::vector<Cell>;

class PreparedStatement {
 public:
  // `name` says what it is (it shows in pg_prepared_statements); a hash of `text` is added, so
  // two statements of one name cannot take each other's plan.
  PreparedStatement(std::string_view name, std::string text);

  // Runs it on the connection `sql` holds, with `parameters` for $1, $2, …; the rows it
  // answered. Throws soci::postgresql_soci_error when PostgreSQL refuses it.
  std::vector<Row> run(soci::session& sql, const std::vector<Cell>& parameters) const;

  const std::string& name() const { return name_; }
  const std::string& text() const { return text_; }

 private:
  std::string name_;
  std::string text_;
};

// Whether run() prepares (the default) or sends the text unnamed every time; set once at start.
void usePreparedStatements(bool on);

// A parameter that is NULL when `text` is empty (an optional id: a request id, …).
Cell nullIfEmpty(const std::string& text);
// A cell's text, or `fallback` for NULL; a cell as a number (throws on NULL or bad text).
std::string textOr(const Cell& cell, const std::string& fallback = {});
long long integerOf(const Cell& cell);

}  // namespace smsgw::db
