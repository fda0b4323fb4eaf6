#include "services/oauth/retention.h"

#include <soci/soci.h>

#include <vector>

#include "db/procedures/end_oauth_grant.h"

namespace smsgw::oauth {

int pruneSpent(soci::session& sql, TimePoint now) {
  soci::transaction tx(sql);
  int codes = 0, tokens = 0, clients = 0;
  std::string at = formatIso(now);
  // A used code is kept a day past its expiry so that a replay within its life still finds it
  // and revokes what it made; later it would be refused as expired anyway.
  sql << "WITH gone AS (DELETE FROM oauth_codes WHERE expires_at < :now::timestamptz - "
         "interval '1 day' RETURNING 1) SELECT count(*) FROM gone",
      soci::use(at, "now"), soci::into(codes);
  // A spent refresh token matters while its grant could still be refreshed: it tells a leak.
  sql << "WITH gone AS (DELETE FROM oauth_spent_refresh_tokens s USING oauth_grants g WHERE "
         "g.id = s.grant_id AND (g.revoked_at < :now::timestamptz - interval '1 day' OR "
         "g.refresh_expires_at < :now::timestamptz - interval '1 day') RETURNING 1) "
         "SELECT count(*) FROM gone",
      soci::use(at, "now"), soci::into(tokens);
  sql << "WITH gone AS (DELETE FROM oauth_clients c WHERE c.kind = 'REGISTERED' AND "
         "c.created_at < :now::timestamptz - interval '30 days' AND NOT EXISTS (SELECT 1 FROM "
         "oauth_grants g WHERE g.client_id = c.id) AND NOT EXISTS (SELECT 1 FROM oauth_codes o "
         "WHERE o.client_id = c.id) RETURNING 1) SELECT count(*) FROM gone",
      soci::use(at, "now"), soci::into(clients);
  tx.commit();
  return codes + tokens + clients;
}

int endExpiredGrants(soci::session& sql, TimePoint now) {
  std::string at = formatIso(now);
  std::vector<std::string> expired(500);
  int ended = 0;
  do {
    sql << "SELECT id FROM oauth_grants WHERE revoked_at IS NULL AND refresh_expires_at <= "
           ":now::timestamptz LIMIT 500",
        soci::use(at, "now"), soci::into(expired);
    for (const auto& grant_id : expired)
      ended += db::endOAuthGrant(sql, {grant_id, "expired", now}) ? 1 : 0;
  } while (expired.size() == 500);
  return ended;
}

OAuthRetentionCounts pruneExpired(db::Database& db, TimePoint now) {
  db::Session sql(db);
  OAuthRetentionCounts counts;
  counts.grants_ended = endExpiredGrants(*sql, now);
  counts.rows_pruned = pruneSpent(*sql, now);
  return counts;
}

}  // namespace smsgw::oauth
