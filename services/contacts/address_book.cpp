#include "services/contacts/address_book.h"

#include <soci/soci.h>

namespace smsgw::contacts {

void lockAddressBook(soci::session& sql, const std::string& account_id) {
  std::string key = "address_book:" + account_id;
  sql << "SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))", soci::use(key, "key");
}

}  // namespace smsgw::contacts
