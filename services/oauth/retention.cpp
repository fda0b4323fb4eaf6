#include "services/oauth/retention.h"

#include <soci/soci.h>

namespace smsgw::oauth {

int pruneSpent(soci::session& sql) {
  soci::transaction tx(sql);
  int codes = 0, tokens = 0, clients = 0;
  // A used code is kept a day past its expiry so that a replay within its life still finds it
  // and revokes what it made; later it would be refused as expired anyway.
  sql << "WITH gone AS (DELETE FROM oauth_codes WHERE expires_at < now() - interval '1 day' "
         "RETURNING 1) SELECT count(*) FROM gone",
      soci::into(codes);
  // A spent refresh token matters while its grant could still be refreshed: it tells a leak.
  sql << "WITH gone AS (DELETE FROM oauth_spent_refresh_tokens s USING oauth_grants g WHERE "
         "g.id = s.grant_id AND (g.revoked_at < now() - interval '1 day' OR "
         "g.refresh_expires_at < now() - interval '1 day') RETURNING 1) SELECT count(*) FROM gone",
      soci::into(tokens);
  sql << "WITH gone AS (DELETE FROM oauth_clients c WHERE c.kind = 'REGISTERED' AND "
         "c.created_at < now() - interval '30 days' AND NOT EXISTS (SELECT 1 FROM oauth_grants g "
         "WHERE g.client_id = c.id) AND NOT EXISTS (SELECT 1 FROM oauth_codes o WHERE "
         "o.client_id = c.id) RETURNING 1) SELECT count(*) FROM gone",
      soci::into(clients);
  tx.commit();
  return codes + tokens + clients;
}

int endExpiredGrants(soci::session& sql, TimePoint now) {
  std::string at = formatIso(now);
  int ended = 0;
  sql << "SELECT coalesce(sum(end_oauth_grant(id, 'expired', :now::timestamptz)), 0)::int FROM "
         "oauth_grants WHERE revoked_at IS NULL AND refresh_expires_at <= :now2::timestamptz",
      soci::use(at), soci::use(at), soci::into(ended);
  return ended;
}

}  // namespace smsgw::oauth
