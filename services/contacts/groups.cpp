#include "services/contacts/groups.h"

#include <soci/soci.h>

#include "domain/errors.h"
#include "domain/ids.h"
#include "domain/ownership.h"
#include "services/contacts/named_sets.h"

namespace smsgw::contacts {
namespace {

// The contact a new member names: an existing one of the account's with a phone number, or the
// one holding the number (created when there is none).
std::string memberContact(soci::session& sql, const Caller& caller, const NewMember& member,
                          TimePoint now) {
  std::string owner, contact_id, phone;
  soci::indicator phone_ind = soci::i_null;
  if (member.contact_id) {
    sql << "SELECT account_id, phone_number FROM contacts WHERE id = :id",
        soci::use(*member.contact_id), soci::into(owner), soci::into(phone, phone_ind);
    if (!sql.got_data()) throw ApiError(ErrorCode::CONTACT_NOT_FOUND);
    requireOwnedBy(owner, caller.account_id);
    if (phone_ind != soci::i_ok) throw ApiError(ErrorCode::CONTACT_HAS_NO_PHONE);
    return *member.contact_id;
  }
  sql << "SELECT id FROM contacts WHERE account_id = :a AND phone_number = :p",
      soci::use(caller.account_id), soci::use(*member.phone_number), soci::into(contact_id);
  if (sql.got_data()) return contact_id;
  contact_id = newId("ct");
  std::string at = formatIso(now);
  sql << "INSERT INTO contacts (id, account_id, phone_number, created_at, updated_at) VALUES "
         "(:id, :a, :p, :now::timestamptz, :now2::timestamptz)",
      soci::use(contact_id), soci::use(caller.account_id), soci::use(*member.phone_number),
      soci::use(at), soci::use(at);
  return contact_id;
}

}  // namespace

void requireOwnGroup(soci::session& sql, const Caller& caller, const std::string& id, bool lock) {
  requireOwnSet(sql, kGroups, caller, id, lock);
}

nlohmann::json createGroup(db::Database& db, const Caller& caller, const NamedFields& fields,
                           TimePoint now) {
  return createSet(db, kGroups, caller, fields, now);
}

nlohmann::json groupPage(db::Database& db, const Caller& caller, const std::string& search,
                         int limit, int offset) {
  return setPage(db, kGroups, caller, search, limit, offset);
}

nlohmann::json group(db::Database& db, const Caller& caller, const std::string& id) {
  return readSet(db, kGroups, caller, id);
}

nlohmann::json changeGroup(db::Database& db, const Caller& caller, const std::string& id,
                           const NamedFields& fields, TimePoint now) {
  return changeSet(db, kGroups, caller, id, fields, now);
}

void deleteGroup(db::Database& db, const Caller& caller, const std::string& id) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  beginChange(*sql, kGroups, caller, id);
  // Memberships and list entries naming the group go with it; its contacts stay.
  *sql << "DELETE FROM contact_groups WHERE id = :id", soci::use(id);
  tx.commit();
}

nlohmann::json addMember(db::Database& db, const Caller& caller, const std::string& group_id,
                         const NewMember& member, TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  beginChange(*sql, kGroups, caller, group_id);
  std::string contact_id = memberContact(*sql, caller, member, now);
  std::string at = formatIso(now), added;
  *sql << "INSERT INTO contact_group_members (group_id, contact_id, added_at) VALUES "
          "(:g, :c, :now::timestamptz) ON CONFLICT DO NOTHING RETURNING contact_id",
      soci::use(group_id), soci::use(contact_id), soci::use(at), soci::into(added);
  if (!sql->got_data()) {
    throw ApiError(ErrorCode::CONTACT_GROUP_MEMBER_EXISTS, {{"contact_id", contact_id}});
  }
  touchSet(*sql, kGroups, group_id, now);
  std::string member_json;
  *sql << "SELECT jsonb_build_object('id', c.id, 'phone_number', c.phone_number, 'name', c.name, "
          "'added_at', iso_ts(m.added_at))::text FROM contact_group_members m JOIN contacts c "
          "ON c.id = m.contact_id WHERE m.group_id = :g AND m.contact_id = :c",
      soci::use(group_id), soci::use(contact_id), soci::into(member_json);
  tx.commit();
  return nlohmann::json::parse(member_json);
}

void removeMember(db::Database& db, const Caller& caller, const std::string& group_id,
                  const std::string& contact_id, TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  beginChange(*sql, kGroups, caller, group_id);
  std::string removed;
  *sql << "DELETE FROM contact_group_members WHERE group_id = :g AND contact_id = :c "
          "RETURNING contact_id",
      soci::use(group_id), soci::use(contact_id), soci::into(removed);
  if (!sql->got_data()) throw ApiError(ErrorCode::CONTACT_GROUP_MEMBER_NOT_FOUND);
  touchSet(*sql, kGroups, group_id, now);
  tx.commit();
}

}  // namespace smsgw::contacts
