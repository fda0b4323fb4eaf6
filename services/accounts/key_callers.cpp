#include "services/accounts/key_callers.h"

#include <soci/soci.h>

#include <nlohmann/json.hpp>

#include "domain/api_key.h"
#include "domain/errors.h"

namespace smsgw::accounts {
namespace {

// api_key_caller's row, read as JSON by every path so both parse it alike.
struct KeyRow {
  Caller caller;
  bool revoked = false;
  bool stale = false;  // last_used_at is due to be written
};

std::optional<std::string> optionalText(const nlohmann::json& row, const char* name) {
  if (!row.contains(name) || row.at(name).is_null()) return std::nullopt;
  return row.at(name).get<std::string>();
}

KeyRow parseKeyRow(const std::string& json_text) {
  auto row = nlohmann::json::parse(json_text);
  KeyRow key;
  key.caller.key_id = row.at("key_id");
  key.caller.account_id = row.at("account_id");
  key.caller.mode = *keyModeFromString(row.at("mode").get<std::string>());
  key.caller.permissions =
      Permissions::fromJson(nlohmann::json::parse(row.at("permissions").get<std::string>()));
  key.caller.account_status = accountStatusFromString(row.at("account_status").get<std::string>());
  key.caller.fenced = row.at("fenced") != 0;
  key.caller.allow_list_required = row.at("allow_list_required") != 0;
  key.caller.allow_list_id = optionalText(row, "allow_list_id");
  key.caller.deny_list_id = optionalText(row, "deny_list_id");
  if (row.contains("requests_per_second") && !row.at("requests_per_second").is_null())
    key.caller.requests_per_second = row.at("requests_per_second").get<int>();
  key.caller.resource = optionalText(row, "resource");
  key.caller.oauth_grant_id = optionalText(row, "oauth_grant_id");
  key.caller.dashboard_session = row.at("session") != 0;
  key.revoked = row.at("revoked") != 0;
  key.stale = row.at("stale") != 0;
  return key;
}

// Written at most once a minute per key, so most requests issue no write at all. SKIP LOCKED:
// a send confirming its caller never waits on another request writing the same stamp.
void touchKey(soci::session& sql, const std::string& key_id, TimePoint now) {
  std::string at = formatIso(now);
  sql << "UPDATE api_keys SET last_used_at = :now::timestamptz WHERE id = (SELECT id FROM "
         "api_keys WHERE id = :id AND (last_used_at IS NULL OR last_used_at < "
         ":now2::timestamptz - interval '60 seconds') FOR UPDATE SKIP LOCKED)",
      soci::use(at), soci::use(key_id), soci::use(at);
}

std::optional<std::string> readKeyRow(soci::session& sql, const std::string& key_hash,
                                      TimePoint now) {
  std::string row, at = formatIso(now);
  soci::indicator row_ind = soci::i_null;
  sql << "SELECT " << kKeyRowColumn << " FROM api_key_caller(:key_hash, :now::timestamptz) k",
      soci::use(key_hash), soci::use(at), soci::into(row, row_ind);
  if (!sql.got_data() || row_ind != soci::i_ok) return std::nullopt;
  return row;
}

}  // namespace

Caller lookUpCaller(db::Database& db, const std::string& key_hash, TimePoint now) {
  db::Session sql(db);
  auto row = readKeyRow(*sql, key_hash, now);
  if (!row) throw ApiError(ErrorCode::UNAUTHORIZED);
  KeyRow key = parseKeyRow(*row);
  if (key.revoked) throw ApiError(ErrorCode::API_KEY_REVOKED);
  if (key.stale) touchKey(*sql, key.caller.key_id, now);
  return key.caller;
}

void confirmCaller(soci::session& sql, const CallerGuess& guess,
                   const std::optional<std::string>& key_row, TimePoint now) {
  if (!guess.unconfirmed_key_hash) return;
  if (!key_row) throw CallerChanged();
  KeyRow key = parseKeyRow(*key_row);
  if (key.revoked || key.caller != guess.caller) throw CallerChanged();
  guess.unconfirmed_key_hash.reset();
  if (key.stale) touchKey(sql, key.caller.key_id, now);
}

std::string keyRowJoin(int hash_parameter, int now_parameter) {
  return "LEFT JOIN api_key_caller($" + std::to_string(hash_parameter) + "::text, $" +
         std::to_string(now_parameter) + "::timestamptz) k ON true";
}

void confirmCaller(soci::session& sql, const CallerGuess& guess, TimePoint now) {
  if (!guess.unconfirmed_key_hash) return;
  confirmCaller(sql, guess, readKeyRow(sql, *guess.unconfirmed_key_hash, now), now);
}

}  // namespace smsgw::accounts
