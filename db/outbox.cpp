#include "db/outbox.h"

#include <soci/soci.h>

#include "adapters/log.h"

namespace smsgw::db {

long long enqueueOutbox(soci::session& sql, const std::string& topic, const std::string& key,
                        const std::string& payload) {
  long long id = 0;
  // The request id goes with the row itself, not through the session's setting.
  const std::string& request_id = RequestScope::current();
  sql << "INSERT INTO outbox (topic, record_key, payload, request_id) VALUES (:topic, :key, "
         ":payload, NULLIF(:request, '')) RETURNING id",
      soci::use(topic), soci::use(key), soci::use(payload), soci::use(request_id), soci::into(id);
  return id;
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
