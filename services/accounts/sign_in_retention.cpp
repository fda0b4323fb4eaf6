#include "services/accounts/sign_in_retention.h"

#include <soci/soci.h>

namespace smsgw::accounts {

int pruneSignInLeftovers(db::Database& db, TimePoint now) {
  db::Session sql(db);
  std::string before = formatIso(now - kSignInLeftoverLife);
  int pruned = 0;
  *sql << "WITH links AS (DELETE FROM owner_links WHERE expires_at < :before::timestamptz "
          "RETURNING 1), emails AS (DELETE FROM owner_emails WHERE sent_at < "
          ":before::timestamptz RETURNING 1), browsers AS (DELETE FROM trusted_browsers WHERE "
          "least(expires_at, coalesce(revoked_at, expires_at)) < :before::timestamptz "
          "RETURNING 1) SELECT (SELECT count(*) FROM links) + (SELECT count(*) FROM emails) + "
          "(SELECT count(*) FROM browsers)",
      soci::use(before, "before"), soci::into(pruned);
  return pruned;
}

}  // namespace smsgw::accounts
