#pragma once
// Allow/deny contact lists (spec ContactList): what an API key may message. An entry names
// exactly one of a number, a contact with a phone number, or a group (expanded to its members
// when a send is checked, so a member added later is on the list). Lists are named sets shared
// by the account's TEST and LIVE keys (named_sets.h: names unique without regard to case,
// CONTACT_LIST_ALREADY_EXISTS; the fence rules before every change). A list a key still uses
// cannot be deleted (409 CONFLICT, details.reason list_in_use). Another account's list is 403,
// an unknown one CONTACT_LIST_NOT_FOUND; an entry not in the list CONTACT_LIST_ENTRY_NOT_FOUND.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "db/database.h"
#include "domain/caller.h"
#include "domain/clock.h"
#include "services/contacts/address_book.h"

namespace smsgw::contacts {

nlohmann::json createList(db::Database& db, const Caller& caller, const NamedFields& fields,
                          TimePoint now);
// Newest first, entries embedded; `search` matches the name: {data, total, limit, offset}.
nlohmann::json listPage(db::Database& db, const Caller& caller, const std::string& search,
                        int limit, int offset);
nlohmann::json contactList(db::Database& db, const Caller& caller, const std::string& id);
nlohmann::json changeList(db::Database& db, const Caller& caller, const std::string& id,
                          const NamedFields& fields, TimePoint now);
void deleteList(db::Database& db, const Caller& caller, const std::string& id);

// Exactly one is set (the caller checks: CONTACT_LIST_ENTRY_INVALID); a number is E.164.
struct NewEntry {
  std::optional<std::string> phone_number;
  std::optional<std::string> contact_id;
  std::optional<std::string> contact_group_id;
};
// The entry as ContactList shows it. Throws CONTACT_NOT_FOUND, CONTACT_HAS_NO_PHONE,
// CONTACT_GROUP_NOT_FOUND, CONTACT_LIST_ENTRY_EXISTS and the fence rules' errors.
nlohmann::json addEntry(db::Database& db, const Caller& caller, const std::string& list_id,
                        const NewEntry& entry, TimePoint now);
void removeEntry(db::Database& db, const Caller& caller, const std::string& list_id,
                 const std::string& entry_id, TimePoint now);

}  // namespace smsgw::contacts
