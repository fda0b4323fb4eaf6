#include "services/contacts/named_sets.h"

#include <soci/soci.h>

#include "db/json_rows.h"
#include "domain/ids.h"
#include "domain/ownership.h"

namespace smsgw::contacts {

const NamedSetTable kGroups = {"contact_groups",
                               "cg",
                               "api_contact_group",
                               "contact_group_id",
                               ErrorCode::CONTACT_GROUP_NOT_FOUND,
                               ErrorCode::CONTACT_GROUP_ALREADY_EXISTS,
                               Referenced::Group};
const NamedSetTable kLists = {"contact_lists",
                              "cl",
                              "api_contact_list",
                              "contact_list_id",
                              ErrorCode::CONTACT_LIST_NOT_FOUND,
                              ErrorCode::CONTACT_LIST_ALREADY_EXISTS,
                              Referenced::List};

namespace {

void requireNameFree(soci::session& sql, const NamedSetTable& sets, const std::string& account_id,
                     const std::string& name, const std::string& own_id) {
  std::string taken_by;
  sql << std::string("SELECT id FROM ") + sets.table +
             " WHERE account_id = :a AND lower(name) = lower(:n) AND id <> :own",
      soci::use(account_id), soci::use(name), soci::use(own_id), soci::into(taken_by);
  if (sql.got_data()) throw ApiError(sets.name_taken, {{sets.id_detail, taken_by}});
}

}  // namespace

void requireOwnSet(soci::session& sql, const NamedSetTable& sets, const Caller& caller,
                   const std::string& id, bool lock) {
  std::string owner;
  sql << std::string("SELECT account_id FROM ") + sets.table + " WHERE id = :id" +
             (lock ? " FOR UPDATE" : ""),
      soci::use(id), soci::into(owner);
  if (!sql.got_data()) throw ApiError(sets.not_found);
  requireOwnedBy(owner, caller.account_id);
}

void beginChange(soci::session& sql, const NamedSetTable& sets, const Caller& caller,
                 const std::string& id) {
  lockAddressBook(sql, caller.account_id);
  requireOwnSet(sql, sets, caller, id);
  requireMayChange(sql, caller, sets.kind, id);
}

void touchSet(soci::session& sql, const NamedSetTable& sets, const std::string& id, TimePoint now) {
  std::string at = formatIso(now);
  sql << std::string("UPDATE ") + sets.table + " SET updated_at = :now::timestamptz WHERE id = :id",
      soci::use(at), soci::use(id);
}

nlohmann::json renderSet(soci::session& sql, const NamedSetTable& sets, const std::string& id) {
  return *db::queryJson(
      sql,
      std::string("SELECT ") + sets.render + "(s)::text FROM " + sets.table + " s WHERE s.id = :id",
      id);
}

nlohmann::json createSet(db::Database& db, const NamedSetTable& sets, const Caller& caller,
                         const NamedFields& fields, TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  lockAddressBook(*sql, caller.account_id);
  requireNameFree(*sql, sets, caller.account_id, *fields.name, "");
  std::string id = newId(sets.id_prefix), at = formatIso(now);
  NullableText description(fields.description.value_or(std::nullopt));
  *sql << std::string("INSERT INTO ") + sets.table +
              " (id, account_id, name, description, created_at, updated_at) VALUES (:id, :a, :n, "
              ":d, :now::timestamptz, :now2::timestamptz)",
      soci::use(id), soci::use(caller.account_id), soci::use(*fields.name),
      soci::use(description.text, description.indicator), soci::use(at), soci::use(at);
  nlohmann::json created = renderSet(*sql, sets, id);
  tx.commit();
  return created;
}

nlohmann::json setPage(db::Database& db, const NamedSetTable& sets, const Caller& caller,
                       const std::string& search, int limit, int offset) {
  db::Session sql(db);
  const std::string where = std::string(" FROM ") + sets.table +
                            " s WHERE s.account_id = :a AND (:s = '' OR strpos(lower(s.name), "
                            "lower(:s2)) > 0)";
  long long total = 0;
  *sql << "SELECT count(*)" + where, soci::use(caller.account_id), soci::use(search),
      soci::use(search), soci::into(total);
  nlohmann::json data = nlohmann::json::array();
  soci::rowset<std::string> rows =
      (sql->prepare << std::string("SELECT ") + sets.render + "(s)::text" + where +
                           " ORDER BY s.created_at DESC, s.id DESC LIMIT :limit OFFSET :offset",
       soci::use(caller.account_id), soci::use(search), soci::use(search), soci::use(limit),
       soci::use(offset));
  for (const auto& text : rows) data.push_back(nlohmann::json::parse(text));
  return {{"data", data}, {"total", total}, {"limit", limit}, {"offset", offset}};
}

nlohmann::json readSet(db::Database& db, const NamedSetTable& sets, const Caller& caller,
                       const std::string& id) {
  db::Session sql(db);
  requireOwnSet(*sql, sets, caller, id, false);
  return renderSet(*sql, sets, id);
}

nlohmann::json changeSet(db::Database& db, const NamedSetTable& sets, const Caller& caller,
                         const std::string& id, const NamedFields& fields, TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  beginChange(*sql, sets, caller, id);
  if (fields.name) requireNameFree(*sql, sets, caller.account_id, *fields.name, id);
  std::string at = formatIso(now), name = fields.name.value_or("");
  int set_name = fields.name ? 1 : 0, set_description = fields.description ? 1 : 0;
  NullableText description(fields.description.value_or(std::nullopt));
  *sql << std::string("UPDATE ") + sets.table +
              " SET name = CASE WHEN :sn = 1 THEN :n ELSE name END, description = CASE WHEN "
              ":sd = 1 THEN :d ELSE description END, updated_at = :now::timestamptz WHERE id = :id",
      soci::use(set_name), soci::use(name), soci::use(set_description),
      soci::use(description.text, description.indicator), soci::use(at), soci::use(id);
  nlohmann::json changed = renderSet(*sql, sets, id);
  tx.commit();
  return changed;
}

}  // namespace smsgw::contacts
