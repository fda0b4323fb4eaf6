#include "db/json_rows.h"

#include <soci/soci.h>

namespace smsgw::db {

std::optional<nlohmann::json> queryJson(soci::session& sql, const std::string& query,
                                        const std::string& param) {
  std::string text;
  soci::indicator ind = soci::i_null;
  sql << query, soci::use(param), soci::into(text, ind);
  if (!sql.got_data() || ind == soci::i_null) return std::nullopt;
  return nlohmann::json::parse(text);
}

std::optional<nlohmann::json> queryJson(soci::session& sql, const std::string& query) {
  std::string text;
  soci::indicator ind = soci::i_null;
  sql << query, soci::into(text, ind);
  if (!sql.got_data() || ind == soci::i_null) return std::nullopt;
  return nlohmann::json::parse(text);
}

nlohmann::json queryJsonArray(soci::session& sql, const std::string& query,
                              const std::string& param) {
  nlohmann::json out = nlohmann::json::array();
  soci::rowset<std::string> rows = (sql.prepare << query, soci::use(param));
  for (const auto& text : rows) out.push_back(nlohmann::json::parse(text));
  return out;
}

namespace {

// A statement of `text` with `values` bound by their names (they must outlive it).
soci::statement prepareNamed(soci::session& sql, const std::string& text,
                             const NamedValues& values) {
  soci::statement statement = (sql.prepare << text);
  for (const auto& [name, value] : values) statement.exchange(soci::use(value, name));
  return statement;
}

// Runs a statement whose parameters are already bound and whose one column is JSON text.
nlohmann::json fetchJsonRows(soci::statement& statement) {
  std::string text;
  statement.exchange(soci::into(text));
  statement.define_and_bind();
  statement.execute();
  nlohmann::json out = nlohmann::json::array();
  while (statement.fetch()) out.push_back(nlohmann::json::parse(text));
  return out;
}

}  // namespace

nlohmann::json queryJsonArray(soci::session& sql, const std::string& query,
                              const NamedValues& values) {
  soci::statement statement = prepareNamed(sql, query, values);
  return fetchJsonRows(statement);
}

long long countRows(soci::session& sql, const std::string& count, const NamedValues& values) {
  soci::statement statement = prepareNamed(sql, count, values);
  long long rows = 0;
  statement.exchange(soci::into(rows));
  statement.define_and_bind();
  statement.execute(true);
  return rows;
}

nlohmann::json pageOfRecords(soci::session& sql, const std::string& select,
                             const std::string& account_id, const std::string& mode, int limit,
                             int offset, const NamedValues& filters) {
  soci::statement statement = prepareNamed(sql, select, filters);
  statement.exchange(soci::use(account_id, "account"));
  statement.exchange(soci::use(mode, "mode"));
  statement.exchange(soci::use(limit, "limit"));
  statement.exchange(soci::use(offset, "offset"));
  return fetchJsonRows(statement);
}

}  // namespace smsgw::db
