#pragma once
// Contact groups (spec ContactGroup and the "Contact groups" routes): named sets of the
// account's contacts that have a phone number, shared by its TEST and LIVE keys
// (named_sets.h: names unique without regard to case, CONTACT_GROUP_ALREADY_EXISTS; the fence
// rules before every change; another account's group is 403, an unknown one
// CONTACT_GROUP_NOT_FOUND). Deleting a group keeps its contacts.

#include <soci/session.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "db/database.h"
#include "domain/caller.h"
#include "domain/clock.h"
#include "services/contacts/address_book.h"

namespace smsgw::contacts {

// Throws CONTACT_GROUP_NOT_FOUND, or FORBIDDEN for another account's group. With `lock`, holds
// the group's row to the end of the caller's transaction.
void requireOwnGroup(soci::session& sql, const Caller& caller, const std::string& id,
                     bool lock = true);

nlohmann::json createGroup(db::Database& db, const Caller& caller, const NamedFields& fields,
                           TimePoint now);
// Newest first, members embedded; `search` (may be empty) is a case-insensitive partial match on
// the name: {data, total, limit, offset}.
nlohmann::json groupPage(db::Database& db, const Caller& caller, const std::string& search,
                         int limit, int offset);
nlohmann::json group(db::Database& db, const Caller& caller, const std::string& id);
nlohmann::json changeGroup(db::Database& db, const Caller& caller, const std::string& id,
                           const NamedFields& fields, TimePoint now);
void deleteGroup(db::Database& db, const Caller& caller, const std::string& id);

// One of the two: an existing contact, or a number (its contact is created when the account
// has none with it). The number is E.164, checked by the caller.
struct NewMember {
  std::optional<std::string> contact_id;
  std::optional<std::string> phone_number;
};
// {id (the contact's), phone_number, name, added_at}. Throws CONTACT_NOT_FOUND,
// CONTACT_HAS_NO_PHONE, CONTACT_GROUP_MEMBER_EXISTS and the fence rules' errors.
nlohmann::json addMember(db::Database& db, const Caller& caller, const std::string& group_id,
                         const NewMember& member, TimePoint now);
// Throws CONTACT_GROUP_MEMBER_NOT_FOUND; the contact is kept.
void removeMember(db::Database& db, const Caller& caller, const std::string& group_id,
                  const std::string& contact_id, TimePoint now);

}  // namespace smsgw::contacts
