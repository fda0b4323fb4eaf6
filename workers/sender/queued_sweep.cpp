#include "workers/sender/queued_sweep.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include <vector>

#include "workers/sender/live_handoff.h"
#include "workers/sender/test_simulation.h"

namespace smsgw::workers {
namespace {

constexpr int kBatch = 200;

// Ids the query (placeholders :now, :s, :n in that order) selects as of `now`.
std::vector<std::string> selectIds(db::Database& db, const std::string& query, TimePoint now,
                                   int seconds) {
  db::Session sql(db);
  std::vector<std::string> ids(kBatch);
  int batch = kBatch;
  std::string at = formatIso(now);
  *sql << query, soci::use(at), soci::use(seconds), soci::use(batch), soci::into(ids);
  return ids;
}

}  // namespace

SweepCounts sweepQueued(WorkerContext& context, CarrierClient& carrier, const SendPolicy& policy,
                        const std::string& code_secret, int lost_after_seconds) {
  SweepCounts counts;
  const TimePoint now = context.clock.now();
  {
    db::Session sql(context.db);
    soci::transaction tx(*sql);
    std::vector<std::string> stale(kBatch);
    std::string at = formatIso(now);
    *sql << "SELECT id FROM messages WHERE status = 'QUEUED' AND mode = 'LIVE' AND "
            "handoff_started_at < :now::timestamptz - make_interval(secs => :s) ORDER BY send_at "
            "LIMIT :n FOR UPDATE SKIP LOCKED",
        soci::use(at), soci::use(policy.stale_handoff_seconds), soci::use(kBatch),
        soci::into(stale);
    for (const auto& id : stale) failStaleHandoff(*sql, id, now);
    tx.commit();
    counts.failed_stale = static_cast<int>(stale.size());
  }
  // A message whose slot was still to come when it was accepted (send_at after created_at) is
  // the sweep's to send once due: the consumer acknowledged its record as not due. Any other
  // message is the consumer's, unless its record looks lost; sweeping those at once would race
  // the consumer for every send and cost both sides a round trip.
  auto due = selectIds(context.db,
                       "WITH asof AS (SELECT :now::timestamptz AS t) SELECT id FROM messages, asof "
                       "WHERE status = 'QUEUED' AND mode = 'LIVE' AND handoff_started_at IS NULL "
                       "AND ((send_at > created_at AND send_at <= asof.t) OR "
                       "coalesce(send_at, created_at) < asof.t - make_interval(secs => :s)) "
                       "ORDER BY send_at LIMIT :n",
                       now, lost_after_seconds);
  for (const auto& id : due) {
    if (handOffLive(context, carrier, policy, id, code_secret) == HandoffOutcome::Settled)
      ++counts.handed_off;
  }
  auto lost_tests = selectIds(context.db,
                              "SELECT id FROM messages WHERE status = 'QUEUED' AND mode = 'TEST' "
                              "AND created_at < :now::timestamptz - make_interval(secs => :s) "
                              "ORDER BY created_at LIMIT :n",
                              now, lost_after_seconds);
  for (const auto& id : lost_tests) simulateTestSend(context, id);
  counts.simulated = static_cast<int>(lost_tests.size());
  if (counts.handed_off || counts.failed_stale || counts.simulated) {
    spdlog::info("queued sweep: {} handed off, {} stale, {} TEST re-simulated", counts.handed_off,
                 counts.failed_stale, counts.simulated);
  }
  return counts;
}

}  // namespace smsgw::workers
