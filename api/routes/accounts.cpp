// Accounts: signup, the account document, the 'me' read, profile changes and the ledger.
#include <soci/soci.h>

#include <regex>

#include "api/http/request_text.h"
#include "api/routes/json_rows.h"
#include "api/routes/key_store.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/api_key.h"
#include "domain/crypto.h"
#include "domain/errors.h"
#include "domain/ids.h"

namespace smsgw::api {
namespace {

std::string requireEmail(const nlohmann::json& body) {
  std::string email = requireString(body, "email", 254);
  if (!isEmailAddress(email)) throw validationError("email", "must be an email address");
  return email;
}

nlohmann::json accountDocument(soci::session& sql, const std::string& account_id, TimePoint now) {
  std::string at = formatIso(now), doc;
  sql << "SELECT api_account_document(a, :now::timestamptz)::text FROM accounts a WHERE a.id = :id",
      soci::use(at), soci::use(account_id), soci::into(doc);
  if (!sql.got_data()) throw ApiError(ErrorCode::NOT_FOUND);
  return nlohmann::json::parse(doc);
}

ApiError emailTaken() {
  return ApiError(ErrorCode::CONFLICT, {{"field", "email"}, {"reason", "email_taken"}});
}

void refuseTakenEmail(App& app, const std::string& email) {
  db::Session sql(app.db);
  int taken = 0;
  *sql << "SELECT count(*) FROM accounts WHERE lower(email) = lower(:email)", soci::use(email),
      soci::into(taken);
  if (taken) throw emailTaken();
}

ApiResponse signup(App& app, ApiRequest& req) {
  const auto& body = requireObjectBody(req);
  std::string name = requireString(body, "name", 200);
  std::string email = requireEmail(body);
  std::string password = requireString(body, "password", 200);
  if (utf8Length(password) < 10)
    throw validationError("password", "must be at least 10 characters");
  if (optionalBool(body, "accept_terms") != true)
    throw validationError("accept_terms", "must be true");

  // The cheap refusal first: hashing a password costs tens of milliseconds of CPU on purpose.
  refuseTakenEmail(app, email);
  std::string password_hash = crypto::hashPassword(password);
  db::Session sql(app.db);
  soci::transaction tx(*sql);
  std::string id = newId("acc"), inserted;
  // A signup racing this one for the same address since the check: the index decides.
  *sql << "INSERT INTO accounts (id, name, email, password_hash, terms_accepted_at, terms_version) "
          "VALUES (:id, :name, :email, :hash, now(), :terms) "
          "ON CONFLICT ((lower(email))) DO NOTHING RETURNING id",
      soci::use(id), soci::use(name), soci::use(email), soci::use(password_hash),
      soci::use(app.config.terms_version), soci::into(inserted);
  if (!sql->got_data()) throw emailTaken();
  nlohmann::json keys = nlohmann::json::array();
  keys.push_back(
      insertApiKey(*sql, id, KeyMode::Test, "Default test key", Permissions::everything(), false));
  keys.push_back(
      insertApiKey(*sql, id, KeyMode::Live, "Default live key", Permissions::everything(), false));
  auto account =
      queryJson(*sql, "SELECT api_account(a)::text FROM accounts a WHERE a.id = :id", id);
  tx.commit();
  return ApiResponse::json(201, {{"account", *account}, {"api_keys", keys}});
}

ApiResponse getMe(App& app, ApiRequest& req) {
  db::Session sql(app.db);
  nlohmann::json doc = accountDocument(*sql, req.who().account_id, app.clock.now());
  doc["caller"] = {
      {"mode", toString(req.who().mode)}, {"oauth_client", nullptr}, {"key_id", req.who().key_id}};
  return ApiResponse::json(200, doc);
}

ApiResponse getAccount(App& app, ApiRequest& req) {
  requireOwnAccountPath(req);
  db::Session sql(app.db);
  return ApiResponse::json(200, accountDocument(*sql, req.who().account_id, app.clock.now()));
}

ApiResponse patchAccount(App& app, ApiRequest& req) {
  requireOwnAccountPath(req);
  if (!req.who().live()) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  const auto& body = requireObjectBody(req);
  auto name = optionalString(body, "name", 200);
  if (name && name->empty()) throw validationError("name", "must not be empty");
  std::optional<std::string> email;
  if (body.contains("email")) email = requireEmail(body);
  for (const auto& [field, _] : body.items()) {
    if (field != "name" && field != "email") throw validationError(field, "cannot be changed here");
  }
  db::Session sql(app.db);
  soci::transaction tx(*sql);
  if (email) {
    int taken = 0;
    *sql << "SELECT count(*) FROM accounts WHERE lower(email) = lower(:email) AND id <> :id",
        soci::use(*email), soci::use(req.who().account_id), soci::into(taken);
    if (taken) throw ApiError(ErrorCode::CONFLICT, {{"field", "email"}, {"reason", "email_taken"}});
    // A new address is unverified until proven again.
    *sql << "UPDATE accounts SET email = :email, email_verified_at = NULL WHERE id = :id AND "
            "lower(email) <> lower(:email2)",
        soci::use(*email), soci::use(req.who().account_id), soci::use(*email);
  }
  if (name)
    *sql << "UPDATE accounts SET name = :name WHERE id = :id", soci::use(*name),
        soci::use(req.who().account_id);
  nlohmann::json doc = accountDocument(*sql, req.who().account_id, app.clock.now());
  tx.commit();
  return ApiResponse::json(200, doc);
}

ApiResponse listTransactions(App& app, ApiRequest& req) {
  requireOwnAccountPath(req);
  int limit = queryInteger(req, "limit", 25, 1, 100);
  long long before = std::numeric_limits<long long>::max();
  if (auto it = req.query.find("before"); it != req.query.end() && !it->second.empty()) {
    static const std::regex kCursor(R"(txn_(\d{1,18}))");
    std::smatch m;
    if (!std::regex_match(it->second, m, kCursor))
      throw validationError("before", "must be a transaction id (txn_…)");
    before = std::stoll(m[1]);
  }
  db::Session sql(app.db);
  nlohmann::json data = nlohmann::json::array();
  int fetch = limit + 1;  // one extra row tells whether more exist
  soci::rowset<std::string> rows =
      (sql->prepare
           << "SELECT api_ledger_entry(e)::text FROM ledger_entries e WHERE e.account_id = :id "
              "AND e.id < :before ORDER BY e.id DESC LIMIT :fetch",
       soci::use(req.who().account_id), soci::use(before), soci::use(fetch));
  for (const auto& text : rows) data.push_back(nlohmann::json::parse(text));
  bool has_more = static_cast<int>(data.size()) > limit;
  if (has_more) data.erase(data.end() - 1);
  return ApiResponse::json(200, {{"data", data}, {"has_more", has_more}});
}

}  // namespace

void addAccountRoutes(Router& router, App& app) {
  RouteOptions open;
  open.authenticated = false;
  open.limited_per_address = true;  // no key to count by, and the password is hashed slowly
  router.add("POST", "/v1/accounts", onSlowLane(open),
             [&app](ApiRequest& r) { return signup(app, r); });

  RouteOptions read = needs("account:r");
  read.allowed_before_payment = true;
  RouteOptions modify = needs("account:m");
  modify.allowed_before_payment = true;
  RouteOptions me;  // every key may read whose it is
  me.allowed_before_payment = true;
  router.add("GET", "/v1/accounts/me", me, [&app](ApiRequest& r) { return getMe(app, r); });
  router.add("GET", "/v1/accounts/{id}", read,
             [&app](ApiRequest& r) { return getAccount(app, r); });
  router.add("PATCH", "/v1/accounts/{id}", modify,
             [&app](ApiRequest& r) { return patchAccount(app, r); });
  router.add("GET", "/v1/accounts/{id}/transactions", read,
             [&app](ApiRequest& r) { return listTransactions(app, r); });
}

}  // namespace smsgw::api
