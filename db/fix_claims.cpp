#include "db/fix_claims.h"

#include <soci/soci.h>

namespace smsgw::db {

bool claimFix(soci::session& sql, const std::string& kind, const std::string& ref, TimePoint now,
              std::chrono::seconds wait) {
  // Every bound value lives until the statement ran (soci::use keeps a reference).
  std::string at = formatIso(now), cutoff = formatIso(now - wait);
  int times = 0;
  sql << "INSERT INTO reconciler_fixes (kind, ref, fixed_at) VALUES (:k, :r, :at::timestamptz) "
         "ON CONFLICT (kind, ref) DO UPDATE SET fixed_at = EXCLUDED.fixed_at, "
         "times = reconciler_fixes.times + 1 WHERE reconciler_fixes.fixed_at <= "
         ":cutoff::timestamptz RETURNING times",
      soci::use(kind), soci::use(ref), soci::use(at), soci::use(cutoff), soci::into(times);
  return sql.got_data();
}

}  // namespace smsgw::db
