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

std::optional<OutboxRebase> bindOutboxToCluster(soci::session& sql) {
  soci::transaction tx(sql);
  OutboxRebase rebase;
  sql << "SELECT p.cluster_id, c.system_identifier FROM outbox_relay_position p, "
         "pg_control_system() c FOR UPDATE OF p",
      soci::into(rebase.from_cluster), soci::into(rebase.to_cluster);
  if (rebase.from_cluster == rebase.to_cluster) return std::nullopt;
  sql << "LOCK TABLE outbox IN EXCLUSIVE MODE";
  // Published: at or below the old position, with an id the relay had reached. Every row
  // written in this cluster has a higher id, whatever its transaction id.
  sql << "WITH pos AS (SELECT txid, id, highest_published_id FROM outbox_relay_position), "
         "moved AS (UPDATE outbox o SET txid = CASE WHEN (o.txid, o.id) <= (pos.txid, pos.id) "
         "AND o.id <= pos.highest_published_id THEN '1'::xid8 ELSE '2'::xid8 END FROM pos "
         "RETURNING o.txid) "
         "SELECT count(*) FROM moved WHERE txid = '2'::xid8",
      soci::into(rebase.rows_to_publish);
  // Below every transaction id a cluster issues (they start at 3): '1' rows were published,
  // '2' rows were not.
  sql << "UPDATE outbox_relay_position SET txid = '1'::xid8, id = 9223372036854775807, "
         "cluster_id = :here, moved_at = now()",
      soci::use(rebase.to_cluster);
  tx.commit();
  return rebase;
}

TimePoint outboxPublishedThrough(Database& db, const std::string& topic,
                                 std::chrono::seconds margin) {
  Session sql(db);
  long long micros = 0;
  long long margin_seconds = margin.count();
  *sql << "SELECT (extract(epoch FROM least(now(), "
          "(SELECT min(created_at) FROM outbox_pending WHERE topic = :topic), "
          "(SELECT min(xact_start) FROM pg_stat_activity WHERE datname = current_database() AND "
          "backend_type = 'client backend' AND pid <> pg_backend_pid())) "
          "- make_interval(secs => :margin)) * 1000000)::bigint",
      soci::use(topic), soci::use(margin_seconds), soci::into(micros);
  return TimePoint(std::chrono::microseconds(micros));
}

OpsGauges readOpsGauges(Database& db) {
  Session sql(db);
  OpsGauges gauges;
  // The rows after the relay's position (migration 0018), read along the primary key.
  *sql << "SELECT count(*), coalesce(extract(epoch FROM now() - min(o.created_at)), 0)::float8, "
          "(SELECT count(*) FROM webhooks WHERE NOT active AND deleted_at IS NULL) "
          "FROM outbox o JOIN outbox_relay_position p ON (o.txid, o.id) > (p.txid, p.id)",
      soci::into(gauges.unpublished_rows), soci::into(gauges.oldest_unpublished_age_seconds),
      soci::into(gauges.disabled_webhooks);
  return gauges;
}

}  // namespace smsgw::db
