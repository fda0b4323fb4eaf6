#pragma once
// What the reconciler repaired, by kind ("event=3 queued=19"): a fault test that claims nothing
// was lost wants none, or the repair path is why it passes; its message names what was fixed.

namespace smsgw::testing {

inline constexpr const char* kReconcilerFixesByKind =
    "SELECT coalesce(string_agg(kind || '=' || n, ' '), '') FROM (SELECT kind, count(*) AS n "
    "FROM reconciler_fixes GROUP BY 1 ORDER BY 1) f";

}  // namespace smsgw::testing
