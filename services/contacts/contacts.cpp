#include "services/contacts/contacts.h"

#include <soci/soci.h>

#include <algorithm>
#include <cctype>

#include "db/json_rows.h"
#include "domain/errors.h"
#include "domain/ids.h"
#include "domain/ownership.h"
#include "services/contacts/fences.h"

namespace smsgw::contacts {
namespace {

constexpr const char* kContactJson = "SELECT api_contact(c)::text FROM contacts c WHERE c.id = :id";

struct Stored {
  std::optional<std::string> phone_number, email, name, notes;
};

std::string lowered(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// The contact as stored, locked, after checking it is the caller's.
Stored lockOwned(soci::session& sql, const Caller& caller, const std::string& id) {
  std::string owner, phone, email, name, notes;
  soci::indicator phone_ind, email_ind, name_ind, notes_ind;
  sql << "SELECT account_id, phone_number, email, name, notes FROM contacts WHERE id = :id "
         "FOR UPDATE",
      soci::use(id), soci::into(owner), soci::into(phone, phone_ind), soci::into(email, email_ind),
      soci::into(name, name_ind), soci::into(notes, notes_ind);
  if (!sql.got_data()) throw ApiError(ErrorCode::CONTACT_NOT_FOUND);
  requireOwnedBy(owner, caller.account_id);
  return {nullable(phone, phone_ind), nullable(email, email_ind), nullable(name, name_ind),
          nullable(notes, notes_ind)};
}

Stored merged(Stored stored, const ContactFields& fields) {
  if (fields.phone_number) stored.phone_number = *fields.phone_number;
  if (fields.email)
    stored.email = *fields.email ? std::optional(lowered(**fields.email)) : std::nullopt;
  if (fields.name) stored.name = *fields.name;
  if (fields.notes) stored.notes = *fields.notes;
  return stored;
}

// At least one way to reach the contact, and neither taken by another of the account's
// contacts. Callers hold the address-book lock, so the answer stands until they commit.
void requireUsable(soci::session& sql, const std::string& account_id, const Stored& contact,
                   const std::string& own_id) {
  if (!contact.phone_number && !contact.email) {
    throw ApiError(ErrorCode::VALIDATION_ERROR,
                   nlohmann::json::array({{{"field", "phone_number"},
                                           {"message", "give a phone_number, an email or both"}}}));
  }
  std::string phone = contact.phone_number.value_or(""), email = contact.email.value_or("");
  std::string taken_by;
  sql << "SELECT id FROM contacts WHERE account_id = :a AND id <> :own AND "
         "((:phone <> '' AND phone_number = :phone2) OR (:email <> '' AND email = :email2)) "
         "LIMIT 1",
      soci::use(account_id), soci::use(own_id), soci::use(phone), soci::use(phone),
      soci::use(email), soci::use(email), soci::into(taken_by);
  if (sql.got_data()) {
    throw ApiError(ErrorCode::CONTACT_ALREADY_EXISTS, {{"contact_id", taken_by}});
  }
}

void write(soci::session& sql, const std::string& statement, const std::string& id,
           const std::string& account_id, const Stored& c, TimePoint now) {
  NullableText phone(c.phone_number), email(c.email), name(c.name), notes(c.notes);
  std::string at = formatIso(now);
  sql << statement, soci::use(id, "id"), soci::use(account_id, "account"),
      soci::use(phone.text, phone.indicator, "phone"),
      soci::use(email.text, email.indicator, "email"), soci::use(name.text, name.indicator, "name"),
      soci::use(notes.text, notes.indicator, "notes"), soci::use(at, "now");
}

}  // namespace

nlohmann::json createContact(db::Database& db, const Caller& caller, const ContactFields& fields,
                             TimePoint now) {
  Stored contact = merged({}, fields);
  db::Session sql(db);
  soci::transaction tx(*sql);
  lockAddressBook(*sql, caller.account_id);
  requireUsable(*sql, caller.account_id, contact, "");
  std::string id = newId("ct");
  write(*sql,
        "INSERT INTO contacts (id, account_id, phone_number, email, name, notes, created_at, "
        "updated_at) VALUES (:id, :account, :phone, :email, :name, :notes, :now::timestamptz, "
        ":now::timestamptz)",
        id, caller.account_id, contact, now);
  auto created = db::queryJson(*sql, kContactJson, id);
  tx.commit();
  return *created;
}

nlohmann::json contactPage(db::Database& db, const Caller& caller, const std::string& search,
                           int limit, int offset) {
  db::Session sql(db);
  const std::string where =
      " FROM contacts c WHERE c.account_id = :a AND (:s = '' OR strpos(lower(coalesce(c.name, "
      "'')), lower(:s2)) > 0 OR strpos(coalesce(c.email, ''), lower(:s3)) > 0 OR "
      "strpos(coalesce(c.phone_number, ''), :s4) > 0)";
  long long total = 0;
  *sql << "SELECT count(*)" + where, soci::use(caller.account_id), soci::use(search),
      soci::use(search), soci::use(search), soci::use(search), soci::into(total);
  nlohmann::json data = nlohmann::json::array();
  soci::rowset<std::string> rows =
      (sql->prepare << "SELECT api_contact(c)::text" + where +
                           " ORDER BY c.created_at DESC, c.id DESC LIMIT :limit OFFSET :offset",
       soci::use(caller.account_id), soci::use(search), soci::use(search), soci::use(search),
       soci::use(search), soci::use(limit), soci::use(offset));
  for (const auto& text : rows) data.push_back(nlohmann::json::parse(text));
  return {{"data", data}, {"total", total}, {"limit", limit}, {"offset", offset}};
}

nlohmann::json contact(db::Database& db, const Caller& caller, const std::string& id) {
  db::Session sql(db);
  std::string owner;
  *sql << "SELECT account_id FROM contacts WHERE id = :id", soci::use(id), soci::into(owner);
  if (!sql->got_data()) throw ApiError(ErrorCode::CONTACT_NOT_FOUND);
  requireOwnedBy(owner, caller.account_id);
  return *db::queryJson(*sql, kContactJson, id);
}

nlohmann::json changeContact(db::Database& db, const Caller& caller, const std::string& id,
                             const ContactFields& fields, TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  lockAddressBook(*sql, caller.account_id);
  Stored before = lockOwned(*sql, caller, id);
  Stored after = merged(before, fields);
  requireMayChange(*sql, caller, Referenced::Contact, id);
  if (before.phone_number && !after.phone_number) {
    int memberships = 0;
    *sql << "SELECT (EXISTS (SELECT 1 FROM contact_group_members WHERE contact_id = :id) OR "
            "EXISTS (SELECT 1 FROM contact_list_entries WHERE contact_id = :id2))::int",
        soci::use(id), soci::use(id), soci::into(memberships);
    if (memberships) throw ApiError(ErrorCode::CONTACT_IN_USE);
  }
  requireUsable(*sql, caller.account_id, after, id);
  write(*sql,
        "UPDATE contacts SET phone_number = :phone, email = :email, name = :name, notes = :notes, "
        "updated_at = :now::timestamptz WHERE id = :id AND account_id = :account",
        id, caller.account_id, after, now);
  auto changed = db::queryJson(*sql, kContactJson, id);
  tx.commit();
  return *changed;
}

void deleteContact(db::Database& db, const Caller& caller, const std::string& id) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  lockAddressBook(*sql, caller.account_id);
  lockOwned(*sql, caller, id);
  requireMayChange(*sql, caller, Referenced::Contact, id);
  *sql << "DELETE FROM contacts WHERE id = :id", soci::use(id);
  tx.commit();
}

}  // namespace smsgw::contacts
