#include "services/accounts/accounts.h"

#include <soci/soci.h>

#include "db/json_rows.h"
#include "domain/crypto.h"
#include "domain/errors.h"
#include "domain/ids.h"
#include "services/accounts/api_keys.h"

namespace smsgw::accounts {
namespace {

ApiError emailTaken() {
  return ApiError(ErrorCode::CONFLICT, {{"field", "email"}, {"reason", "email_taken"}});
}

void refuseTakenEmail(db::Database& db, const std::string& email) {
  db::Session sql(db);
  int taken = 0;
  *sql << "SELECT count(*) FROM accounts WHERE lower(email) = lower(:email)", soci::use(email),
      soci::into(taken);
  if (taken) throw emailTaken();
}

nlohmann::json documentIn(soci::session& sql, const std::string& account_id, TimePoint now) {
  std::string at = formatIso(now), doc;
  sql << "SELECT api_account_document(a, :now::timestamptz)::text FROM accounts a WHERE a.id = :id",
      soci::use(at), soci::use(account_id), soci::into(doc);
  if (!sql.got_data()) throw ApiError(ErrorCode::NOT_FOUND);
  return nlohmann::json::parse(doc);
}

}  // namespace

nlohmann::json signUp(db::Database& db, const Signup& signup, TimePoint now) {
  // The cheap refusal first: hashing a password costs tens of milliseconds of CPU on purpose.
  refuseTakenEmail(db, signup.email);
  std::string password_hash = crypto::hashPassword(signup.password);
  db::Session sql(db);
  soci::transaction tx(*sql);
  std::string id = newId("acc"), inserted, at = formatIso(now);
  // A signup racing this one for the same address since the check: the index decides.
  *sql << "INSERT INTO accounts (id, name, email, password_hash, terms_accepted_at, terms_version) "
          "VALUES (:id, :name, :email, :hash, :now::timestamptz, :terms) "
          "ON CONFLICT ((lower(email))) DO NOTHING RETURNING id",
      soci::use(id), soci::use(signup.name), soci::use(signup.email), soci::use(password_hash),
      soci::use(at), soci::use(signup.terms_version), soci::into(inserted);
  if (!sql->got_data()) throw emailTaken();
  nlohmann::json keys = nlohmann::json::array();
  keys.push_back(
      insertApiKey(*sql, id, KeyMode::Test, "Default test key", Permissions::everything(), {}));
  keys.push_back(
      insertApiKey(*sql, id, KeyMode::Live, "Default live key", Permissions::everything(), {}));
  auto account =
      db::queryJson(*sql, "SELECT api_account(a)::text FROM accounts a WHERE a.id = :id", id);
  tx.commit();
  return {{"account", *account}, {"api_keys", keys}};
}

nlohmann::json accountDocument(db::Database& db, const std::string& account_id, TimePoint now) {
  db::Session sql(db);
  return documentIn(*sql, account_id, now);
}

nlohmann::json changeAccount(db::Database& db, const std::string& account_id,
                             const AccountChange& change, TimePoint now) {
  const auto& [name, sender_name] = change;
  db::Session sql(db);
  soci::transaction tx(*sql);
  if (name) {
    *sql << "UPDATE accounts SET name = :name WHERE id = :id", soci::use(*name),
        soci::use(account_id);
  }
  if (sender_name) {
    std::string text = sender_name->value_or("");
    soci::indicator indicator = *sender_name ? soci::i_ok : soci::i_null;
    *sql << "UPDATE accounts SET sender_name = :sender WHERE id = :id", soci::use(text, indicator),
        soci::use(account_id);
  }
  nlohmann::json doc = documentIn(*sql, account_id, now);
  tx.commit();
  return doc;
}

nlohmann::json ledgerPage(db::Database& db, const std::string& account_id, long long before,
                          int limit) {
  db::Session sql(db);
  nlohmann::json data = nlohmann::json::array();
  int fetch = limit + 1;  // one extra row tells whether more exist
  soci::rowset<std::string> rows =
      (sql->prepare
           << "SELECT api_ledger_entry(e)::text FROM ledger_entries e WHERE e.account_id = :id "
              "AND e.id < :before ORDER BY e.id DESC LIMIT :fetch",
       soci::use(account_id), soci::use(before), soci::use(fetch));
  for (const auto& text : rows) data.push_back(nlohmann::json::parse(text));
  bool has_more = static_cast<int>(data.size()) > limit;
  if (has_more) data.erase(data.end() - 1);
  return {{"data", data}, {"has_more", has_more}};
}

}  // namespace smsgw::accounts
