#include "services/contacts/lists.h"

#include <soci/soci.h>

#include "db/json_rows.h"
#include "domain/errors.h"
#include "domain/ids.h"
#include "domain/ownership.h"
#include "services/contacts/named_sets.h"

namespace smsgw::contacts {
namespace {

// The contact or group an entry names must be the caller's; a contact must have a number.
void requireEntryTarget(soci::session& sql, const Caller& caller, const NewEntry& entry) {
  std::string owner, phone;
  soci::indicator phone_ind = soci::i_null;
  if (entry.contact_id) {
    sql << "SELECT account_id, phone_number FROM contacts WHERE id = :id",
        soci::use(*entry.contact_id), soci::into(owner), soci::into(phone, phone_ind);
    if (!sql.got_data()) throw ApiError(ErrorCode::CONTACT_NOT_FOUND);
    requireOwnedBy(owner, caller.account_id);
    if (phone_ind != soci::i_ok) throw ApiError(ErrorCode::CONTACT_HAS_NO_PHONE);
  }
  if (entry.contact_group_id) requireOwnSet(sql, kGroups, caller, *entry.contact_group_id, false);
}

}  // namespace

nlohmann::json createList(db::Database& db, const Caller& caller, const NamedFields& fields,
                          TimePoint now) {
  return createSet(db, kLists, caller, fields, now);
}

nlohmann::json listPage(db::Database& db, const Caller& caller, const std::string& search,
                        int limit, int offset) {
  return setPage(db, kLists, caller, search, limit, offset);
}

nlohmann::json contactList(db::Database& db, const Caller& caller, const std::string& id) {
  return readSet(db, kLists, caller, id);
}

nlohmann::json changeList(db::Database& db, const Caller& caller, const std::string& id,
                          const NamedFields& fields, TimePoint now) {
  return changeSet(db, kLists, caller, id, fields, now);
}

void deleteList(db::Database& db, const Caller& caller, const std::string& id) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  beginChange(*sql, kLists, caller, id);
  // A key still fenced by the list keeps it: deleting it would silently widen or narrow whom
  // that key may message. Revoked keys let go of it.
  auto in_use = db::queryJson(*sql,
                              "SELECT json_agg(id ORDER BY id)::text FROM api_keys WHERE "
                              "revoked_at IS NULL AND :l IN (allow_list_id, deny_list_id)",
                              id);
  if (in_use) {
    throw ApiError(ErrorCode::CONFLICT, {{"reason", "list_in_use"}, {"api_key_ids", *in_use}});
  }
  *sql << "UPDATE api_keys SET allow_list_id = CASE WHEN allow_list_id = :l THEN NULL ELSE "
          "allow_list_id END, deny_list_id = CASE WHEN deny_list_id = :l2 THEN NULL ELSE "
          "deny_list_id END WHERE allow_list_id = :l3 OR deny_list_id = :l4",
      soci::use(id), soci::use(id), soci::use(id), soci::use(id);
  *sql << "DELETE FROM contact_lists WHERE id = :id", soci::use(id);
  tx.commit();
}

nlohmann::json addEntry(db::Database& db, const Caller& caller, const std::string& list_id,
                        const NewEntry& entry, TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  beginChange(*sql, kLists, caller, list_id);
  requireEntryTarget(*sql, caller, entry);
  std::string id = newId("cle"), at = formatIso(now), added;
  NullableText phone(entry.phone_number), contact(entry.contact_id), group(entry.contact_group_id);
  // The partial unique indexes (one per kind of entry) make a repeat a conflict.
  *sql << "INSERT INTO contact_list_entries (id, list_id, phone_number, contact_id, "
          "contact_group_id, added_at) VALUES (:id, :l, :p, :c, :g, :now::timestamptz) "
          "ON CONFLICT DO NOTHING RETURNING id",
      soci::use(id), soci::use(list_id), soci::use(phone.text, phone.indicator),
      soci::use(contact.text, contact.indicator), soci::use(group.text, group.indicator),
      soci::use(at), soci::into(added);
  if (!sql->got_data()) throw ApiError(ErrorCode::CONTACT_LIST_ENTRY_EXISTS);
  touchSet(*sql, kLists, list_id, now);
  auto created = db::queryJson(
      *sql, "SELECT api_contact_list_entry(e)::text FROM contact_list_entries e WHERE e.id = :id",
      id);
  tx.commit();
  return *created;
}

void removeEntry(db::Database& db, const Caller& caller, const std::string& list_id,
                 const std::string& entry_id, TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  beginChange(*sql, kLists, caller, list_id);
  std::string removed;
  *sql << "DELETE FROM contact_list_entries WHERE id = :id AND list_id = :l RETURNING id",
      soci::use(entry_id), soci::use(list_id), soci::into(removed);
  if (!sql->got_data()) throw ApiError(ErrorCode::CONTACT_LIST_ENTRY_NOT_FOUND);
  touchSet(*sql, kLists, list_id, now);
  tx.commit();
}

}  // namespace smsgw::contacts
