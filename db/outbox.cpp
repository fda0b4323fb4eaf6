#include "db/outbox.h"

#include <soci/soci.h>

namespace smsgw::db {

long long enqueueOutbox(soci::session& sql, const std::string& topic, const std::string& key,
                        const std::string& payload) {
  long long id = 0;
  sql << "INSERT INTO outbox (topic, record_key, payload) VALUES (:topic, :key, :payload) "
         "RETURNING id",
      soci::use(topic), soci::use(key), soci::use(payload), soci::into(id);
  return id;
}

long long enqueueOutbox(Database& db, const std::string& topic, const std::string& key,
                        const std::string& payload) {
  Session sql(db);
  return enqueueOutbox(*sql, topic, key, payload);
}

OutboxBacklog outboxBacklog(Database& db) {
  Session sql(db);
  OutboxBacklog backlog;
  // The partial index outbox_unpublished holds exactly these rows.
  *sql << "SELECT count(*), coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 "
          "FROM outbox WHERE published_at IS NULL",
      soci::into(backlog.rows), soci::into(backlog.oldest_age_seconds);
  return backlog;
}

}  // namespace smsgw::db
