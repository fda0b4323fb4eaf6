#include "db/procedures/end_oauth_grant.h"

#include <soci/soci.h>

namespace smsgw::db {

const Procedure kEndOAuthGrant{
    "end_oauth_grant",
    {{"p_grant_id", "text"}, {"p_because", "text"}, {"p_now", "timestamp with time zone"}},
    "integer"};

bool endOAuthGrant(soci::session& sql, const GrantEnding& ending) {
  std::string at = formatIso(ending.now);
  int ended = 0;
  sql << kEndOAuthGrant.callText("end_oauth_grant"), soci::use(ending.grant_id, "p_grant_id"),
      soci::use(ending.because, "p_because"), soci::use(at, "p_now"), soci::into(ended);
  return ended == 1;
}

}  // namespace smsgw::db
