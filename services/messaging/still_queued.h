#pragma once
// The guard of every update that takes a message out of QUEUED by its id.
//
// Written `(status = 'QUEUED') IS TRUE` rather than `status = 'QUEUED'` on purpose: the plain
// form proves the predicate of the partial index messages_queued, and when that index's
// statistics say it is nearly empty the planner scans the whole of it (dead entries included)
// instead of finding the id in the primary key. Under load that cost about 550 buffer reads
// per hand-off (pg_stat_statements, ops/bench/send-bench). The two forms select the same rows.

namespace smsgw::messaging {

inline constexpr const char* kStillQueued = "(status = 'QUEUED') IS TRUE";

}  // namespace smsgw::messaging
