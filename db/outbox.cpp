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
