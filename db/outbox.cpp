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

}  // namespace smsgw::db
