#pragma once
// What OAuth no longer needs, deleted by the receipt worker's periodic retention pass: codes a
// day past their expiry, spent refresh tokens of grants that ended (revoked or expired) a day
// ago, and registered clients that made no connection in 30 days.

#include <soci/session.h>

#include "db/database.h"
#include "domain/clock.h"

namespace smsgw::oauth {

// Returns how many rows went. Safe to run from any number of processes.
int pruneSpent(soci::session& sql, TimePoint now);

// Grants whose refresh token expired unused end as a revocation ends them
// (db/functions/end_oauth_grant.sql): the endpoints their tokens registered are deleted. Returns
// how many ended.
int endExpiredGrants(soci::session& sql, TimePoint now);

// The periodic pass: both of the above.
struct OAuthRetentionCounts {
  int grants_ended = 0;
  int rows_pruned = 0;
};
OAuthRetentionCounts pruneExpired(db::Database& db, TimePoint now);

}  // namespace smsgw::oauth
