#pragma once
// Contacts (spec Contact): the account's address book, shared by its TEST and LIVE keys. A
// contact has a phone number, an email or both; each names one contact per account
// (CONTACT_ALREADY_EXISTS). Only contacts with a phone number join groups and lists, so a
// contact in one keeps its number (CONTACT_IN_USE). Deleting a contact takes it out of its
// groups and lists. Another account's contact is 403, an unknown one CONTACT_NOT_FOUND.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "db/database.h"
#include "domain/caller.h"
#include "domain/clock.h"
#include "services/contacts/address_book.h"

namespace smsgw::contacts {

struct ContactFields {
  FieldChange phone_number;  // E.164, checked by the caller
  FieldChange email;         // checked by the caller; stored lower-cased
  FieldChange name;
  FieldChange notes;
};

// Throws ApiError VALIDATION_ERROR (neither phone_number nor email) or CONTACT_ALREADY_EXISTS.
nlohmann::json createContact(db::Database& db, const Caller& caller, const ContactFields& fields,
                             TimePoint now);
// Newest first; `search` (may be empty) is a case-insensitive partial match on the name, the
// email or the phone number: {data, total, limit, offset}.
nlohmann::json contactPage(db::Database& db, const Caller& caller, const std::string& search,
                           int limit, int offset);
nlohmann::json contact(db::Database& db, const Caller& caller, const std::string& id);
// Throws as createContact, CONTACT_IN_USE, and the fence rules' KEY_FENCED and
// LIVE_KEY_REQUIRED (fences.h).
nlohmann::json changeContact(db::Database& db, const Caller& caller, const std::string& id,
                             const ContactFields& fields, TimePoint now);
void deleteContact(db::Database& db, const Caller& caller, const std::string& id);

}  // namespace smsgw::contacts
