#include "services/accounts/trusted_browsers.h"

#include <soci/soci.h>

#include "domain/crypto.h"
#include "domain/ids.h"

namespace smsgw::accounts {
namespace {

constexpr size_t kTokenCharacters = 43;  // base62: about 256 bits

}  // namespace

std::string trustBrowser(soci::session& sql, const std::string& account_id, TimePoint now) {
  std::string token = randomBase62(kTokenCharacters);
  std::string id = newId("brw", now), hash = crypto::sha256Hex(token), at = formatIso(now);
  std::string until = formatIso(now + kBrowserTrust);
  sql << "INSERT INTO trusted_browsers (id, account_id, token_hash, created_at, last_used_at, "
         "expires_at) VALUES (:id, :account, :hash, :now::timestamptz, :now2::timestamptz, "
         ":until::timestamptz)",
      soci::use(id), soci::use(account_id), soci::use(hash), soci::use(at), soci::use(at),
      soci::use(until);
  return token;
}

std::optional<std::string> trustedBrowserOf(soci::session& sql, const std::string& token,
                                            const std::string& account_id, TimePoint now) {
  std::string id, hash = crypto::sha256Hex(token), at = formatIso(now);
  sql << "SELECT id FROM trusted_browsers WHERE token_hash = :hash AND account_id = :account "
         "AND revoked_at IS NULL AND expires_at > :now::timestamptz",
      soci::use(hash), soci::use(account_id), soci::use(at), soci::into(id);
  if (!sql.got_data()) return std::nullopt;
  return id;
}

void touchBrowser(soci::session& sql, const std::string& browser_id, TimePoint now) {
  std::string at = formatIso(now), until = formatIso(now + kBrowserTrust);
  sql << "UPDATE trusted_browsers SET last_used_at = :now::timestamptz, expires_at = "
         ":until::timestamptz WHERE id = :id",
      soci::use(at), soci::use(until), soci::use(browser_id);
}

void forgetBrowsers(soci::session& sql, const std::string& account_id, TimePoint now) {
  std::string at = formatIso(now);
  sql << "UPDATE trusted_browsers SET revoked_at = :now::timestamptz WHERE account_id = :account "
         "AND revoked_at IS NULL",
      soci::use(at), soci::use(account_id);
}

}  // namespace smsgw::accounts
