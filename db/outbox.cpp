#include "db/outbox.h"

#include <soci/soci.h>

#include "adapters/log.h"
#include "db/prepared_statement.h"

namespace smsgw::db {

long long enqueueOutbox(soci::session& sql, const std::string& topic, const std::string& key,
                        const std::string& payload) {
  // Prepared: the sender writes one per hand-off (its sms.outbound.result record).
  static const PreparedStatement insert(
      "enqueue_outbox",
      "INSERT INTO outbox (topic, record_key, payload, request_id) "
      "VALUES ($1::text, $2::text, $3::text, $4::text) RETURNING id");
  // The request id goes with the row itself, not through the session's setting.
  std::vector<Row> rows =
      insert.run(sql, {topic, key, payload, nullIfEmpty(RequestScope::current())});
  return integerOf(rows.at(0).at(0));
}

long long enqueueOutbox(Database& db, const std::string& topic, const std::string& key,
                        const std::string& payload) {
  Session sql(db);
  return enqueueOutbox(*sql, topic, key, payload);
}

std::optional<OutboxRebase> bindOutboxToCluster(soci::session& sql, TimePoint now) {
  soci::transaction tx(sql);
  OutboxRebase rebase;
  sql << "SELECT p.cluster_id, c.system_identifier FROM outbox_relay_position p, "
         "pg_control_system() c FOR UPDATE OF p",
      soci::into(rebase.from_cluster), soci::into(rebase.to_cluster);
  if (rebase.from_cluster == rebase.to_cluster) return std::nullopt;
  // Writers wait; those under way finish first, so every row here has its stamp.
  sql << "LOCK TABLE outbox IN EXCLUSIVE MODE";
  // Published rows take '1', below every transaction id a cluster issues, with a stamp below
  // the position; the others a key of their stamp's own at 2^63 and above, where this
  // cluster's ids will never reach (2^31 wraparounds), keeping their stamps and so their order.
  sql << "WITH moved AS (UPDATE outbox o SET txid = CASE WHEN (c.stamp, o.id) <= (p.stamp, "
         "p.id) THEN '1'::xid8 ELSE (9223372036854775808 + c.stamp)::text::xid8 END "
         "FROM outbox_commits c, outbox_relay_position p WHERE c.txid = o.txid "
         "RETURNING o.txid) SELECT count(*) FROM moved WHERE txid <> '1'::xid8",
      soci::into(rebase.rows_to_publish);
  sql << "DELETE FROM outbox_commits";
  sql << "INSERT INTO outbox_commits (txid, stamp) SELECT DISTINCT txid, CASE WHEN txid = "
         "'1'::xid8 THEN -1 ELSE (txid::text::numeric - 9223372036854775808)::bigint END "
         "FROM outbox";
  std::string at = formatIso(now);
  sql << "UPDATE outbox_relay_position SET cluster_id = :here, moved_at = :now::timestamptz",
      soci::use(rebase.to_cluster, "here"), soci::use(at, "now");
  tx.commit();
  return rebase;
}

TimePoint outboxPublishedThrough(Database& db, const std::string& topic,
                                 std::chrono::seconds margin) {
  Session sql(db);
  long long micros = 0;
  long long margin_seconds = margin.count();
  // The database's clock, not the caller's: the rows' created_at and the transactions' starts
  // are stamped by it, and a horizon across two clocks would move with their skew.
  *sql << "SELECT (extract(epoch FROM least(now(), "
          "(SELECT min(created_at) FROM outbox_pending WHERE topic = :topic), "
          "(SELECT min(xact_start) FROM pg_stat_activity WHERE datname = current_database() AND "
          "backend_type = 'client backend' AND pid <> pg_backend_pid())) "
          "- make_interval(secs => :margin)) * 1000000)::bigint",
      soci::use(topic, "topic"), soci::use(margin_seconds, "margin"), soci::into(micros);
  return TimePoint(std::chrono::microseconds(micros));
}

OpsGauges readOpsGauges(Database& db) {
  Session sql(db);
  OpsGauges gauges;
  // The rows after the relay's position (migration 0030); their age in the clock that stamped
  // them.
  *sql << "SELECT count(*), coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8, "
          "(SELECT count(*) FROM webhooks WHERE NOT active AND deleted_at IS NULL) "
          "FROM outbox_pending",
      soci::into(gauges.unpublished_rows), soci::into(gauges.oldest_unpublished_age_seconds),
      soci::into(gauges.disabled_webhooks);
  return gauges;
}

}  // namespace smsgw::db
