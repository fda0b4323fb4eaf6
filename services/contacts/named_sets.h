#pragma once
// What contact groups and contact lists share: each is a named set of the account's, in a
// table of the same columns (id, account_id, name, description, created_at, updated_at), its
// name unique per account without regard to case, rendered by its own SQL function, and every
// change to it passing the fence rules first (fences.h). groups.cpp and lists.cpp add what
// their sets hold (members, entries).

#include <soci/session.h>

#include <nlohmann/json.hpp>
#include <string>

#include "db/database.h"
#include "domain/caller.h"
#include "domain/clock.h"
#include "domain/errors.h"
#include "services/contacts/address_book.h"
#include "services/contacts/fences.h"

namespace smsgw::contacts {

struct NamedSetTable {
  const char* table;      // contact_groups
  const char* id_prefix;  // cg
  const char* render;     // api_contact_group: the resource as JSON
  const char* id_detail;  // contact_group_id: names the holder of a taken name
  ErrorCode not_found;    // CONTACT_GROUP_NOT_FOUND
  ErrorCode name_taken;   // CONTACT_GROUP_ALREADY_EXISTS
  Referenced kind;        // what the fence rules call it
};

extern const NamedSetTable kGroups;
extern const NamedSetTable kLists;

// Throws `not_found`, or FORBIDDEN for another account's. With `lock`, holds the row to the end
// of the caller's transaction.
void requireOwnSet(soci::session& sql, const NamedSetTable& sets, const Caller& caller,
                   const std::string& id, bool lock = true);
// requireOwnSet, then the fence rules: what every change to a set or its contents begins with,
// under the address-book lock.
void beginChange(soci::session& sql, const NamedSetTable& sets, const Caller& caller,
                 const std::string& id);
// Stamps updated_at: its members or entries changed.
void touchSet(soci::session& sql, const NamedSetTable& sets, const std::string& id, TimePoint now);

nlohmann::json createSet(db::Database& db, const NamedSetTable& sets, const Caller& caller,
                         const NamedFields& fields, TimePoint now);
// Newest first; `search` (may be empty) matches the name: {data, total, limit, offset}.
nlohmann::json setPage(db::Database& db, const NamedSetTable& sets, const Caller& caller,
                       const std::string& search, int limit, int offset);
nlohmann::json readSet(db::Database& db, const NamedSetTable& sets, const Caller& caller,
                       const std::string& id);
nlohmann::json changeSet(db::Database& db, const NamedSetTable& sets, const Caller& caller,
                         const std::string& id, const NamedFields& fields, TimePoint now);
// The set as rendered, in the caller's transaction.
nlohmann::json renderSet(soci::session& sql, const NamedSetTable& sets, const std::string& id);

}  // namespace smsgw::contacts
