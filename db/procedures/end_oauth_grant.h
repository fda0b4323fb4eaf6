#pragma once
// The SQL function end_oauth_grant (db/functions): ends an OAuth grant and everything it holds
// (its refresh token, every access key it made, the webhook endpoints its tokens registered)
// in the caller's transaction (procedure.h says how it is called).

#include <soci/session.h>

#include <string>

#include "db/procedures/procedure.h"
#include "domain/clock.h"

namespace smsgw::db {

struct GrantEnding {
  std::string grant_id;
  std::string because;  // revoked, key_revoked, expired, …
  TimePoint now;
};

extern const Procedure kEndOAuthGrant;

// True when the grant was still live.
bool endOAuthGrant(soci::session& sql, const GrantEnding& ending);

}  // namespace smsgw::db
