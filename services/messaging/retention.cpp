#include "services/messaging/retention.h"

#include <soci/soci.h>

namespace smsgw::messaging {

int purgeExpiredBodies(soci::session& sql, const SendPolicy& policy, int batch, TimePoint now) {
  soci::transaction tx(sql);
  int purged = 0;
  std::string at = formatIso(now);
  sql << "WITH old AS (SELECT id FROM messages WHERE body IS NOT NULL AND created_at < "
         ":now::timestamptz - make_interval(days => :d) ORDER BY created_at LIMIT :n FOR UPDATE "
         "SKIP LOCKED), done AS (UPDATE messages m SET body = NULL, body_purged = true FROM old "
         "WHERE m.id = old.id RETURNING 1) SELECT count(*) FROM done",
      soci::use(at, "now"), soci::use(policy.message_retention_days, "d"), soci::use(batch, "n"),
      soci::into(purged);
  // A receipt for a message we never recorded (a day is far longer than any send call).
  sql << "DELETE FROM early_receipts WHERE received_at < :now::timestamptz - interval '1 day'",
      soci::use(at, "now");
  sql << "DELETE FROM number_lookups WHERE looked_up_at < :now::timestamptz - "
         "make_interval(days => :d)",
      soci::use(at, "now"), soci::use(policy.lookup_cache_days, "d");
  // Dead letters go at the message-retention cutoff, replayed ones after 90 days (spec
  // "Delivery rules" 9).
  sql << "DELETE FROM webhook_dead_letters WHERE created_at < :now::timestamptz - "
         "make_interval(days => :d) OR replayed_at < :now::timestamptz - interval '90 days'",
      soci::use(at, "now"), soci::use(policy.message_retention_days, "d");
  // The attempt log follows the messages it tells about.
  sql << "DELETE FROM webhook_deliveries WHERE occurred_at < :now::timestamptz - "
         "make_interval(days => :d)",
      soci::use(at, "now"), soci::use(policy.message_retention_days, "d");
  tx.commit();
  return purged;
}

int purgePublishedOutbox(soci::session& sql, const SendPolicy& policy, int batch, TimePoint now) {
  int deleted = 0;
  std::string at = formatIso(now);
  // First the stamps in front of the oldest row left, and below the position: they belong to
  // no row any more (an earlier batch, an erasure), and the walk below starts at rows.
  sql << "DELETE FROM outbox_commits WHERE stamp < least((SELECT stamp FROM "
         "outbox_relay_position), (SELECT c.stamp FROM outbox_commits c CROSS JOIN LATERAL "
         "(SELECT 1 FROM outbox o WHERE o.txid = c.txid LIMIT 1) o ORDER BY c.stamp LIMIT 1))";
  // Oldest first in the relay's order, never past its position, read as the relay reads
  // (topics/outbox_relay.cpp): the first `batch` stamps along their index, each transaction's
  // rows by the primary key in a subquery PostgreSQL cannot merge into a join (it holds a lock
  // clause), so no statistics can make it a scan of the outbox per stamp.
  sql << "WITH p AS (SELECT stamp, id FROM outbox_relay_position), "
         "old AS (SELECT o.txid, o.id FROM p, LATERAL (SELECT txid, stamp FROM outbox_commits "
         "WHERE stamp <= p.stamp ORDER BY stamp LIMIT :n) c CROSS JOIN LATERAL (SELECT txid, id "
         "FROM outbox WHERE txid = c.txid AND created_at < :now::timestamptz - "
         "make_interval(hours => :h) AND (c.stamp < p.stamp OR id <= p.id) FOR UPDATE SKIP "
         "LOCKED) o LIMIT :n), done AS (DELETE FROM outbox o USING old WHERE (o.txid, o.id) = "
         "(old.txid, old.id) RETURNING 1) SELECT count(*) FROM done",
      soci::use(batch, "n"), soci::use(at, "now"), soci::use(policy.outbox_retention_hours, "h"),
      soci::into(deleted);
  return deleted;
}

RetentionCounts purgeExpired(db::Database& db, const SendPolicy& policy, TimePoint now) {
  db::Session sql(db);
  RetentionCounts counts;
  while (int batch = purgeExpiredBodies(*sql, policy, 1000, now)) counts.bodies += batch;
  while (int batch = purgePublishedOutbox(*sql, policy, 5000, now)) counts.outbox_rows += batch;
  return counts;
}

}  // namespace smsgw::messaging
