#include "services/messaging/stuck_work.h"

#include <soci/soci.h>

#include "db/fix_claims.h"
#include "db/outbox.h"
#include "services/messaging/handoffs.h"
#include "topics/catalogue.h"
#include "topics/records.h"

namespace smsgw::messaging {

int failStaleHandoffs(db::Database& db, TimePoint started_before, int batch, TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  std::vector<std::string> stale(static_cast<size_t>(batch));
  std::string before = formatIso(started_before);
  *sql << "SELECT id FROM messages WHERE status = 'QUEUED' AND mode = 'LIVE' AND "
          "handoff_started_at < :before::timestamptz AND carrier_outcome_unknown_since IS NULL "
          "ORDER BY send_at LIMIT :n "
          "FOR UPDATE SKIP LOCKED",
      soci::use(before), soci::use(batch), soci::into(stale);
  for (const auto& id : stale) failStaleHandoff(*sql, id, now);
  tx.commit();
  return static_cast<int>(stale.size());
}

int republishUntakenSends(db::Database& db, const db::FixWindow& window) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  std::vector<std::string> ids(static_cast<size_t>(window.batch)), accounts(ids.size()),
      froms(ids.size()), modes(ids.size());
  std::string due_before = formatIso(window.before), since = formatIso(window.after);
  *sql << "SELECT id, account_id, from_number, mode FROM messages WHERE status = 'QUEUED' AND "
          "direction = 'OUTBOUND' AND handoff_started_at IS NULL AND coalesce(send_at, "
          "created_at) < :due::timestamptz AND created_at > :since::timestamptz "
          "ORDER BY send_at LIMIT :n FOR UPDATE SKIP LOCKED",
      soci::use(due_before), soci::use(since), soci::use(window.batch), soci::into(ids),
      soci::into(accounts), soci::into(froms), soci::into(modes);
  int republished = 0;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (!db::claimFix(*sql, "queued", ids[i], window.now, window.wait)) continue;
    topics::OutboundSms record{ids[i], accounts[i], froms[i], modes[i]};
    db::enqueueOutbox(*sql, std::string(topics::kSmsOutbound.name), froms[i],
                      record.toJson().dump());
    ++republished;
  }
  tx.commit();
  return republished;
}

std::vector<AwaitedReceipt> claimAwaitedReceipts(db::Database& db, const db::FixWindow& window) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  std::vector<std::string> ids(static_cast<size_t>(window.batch)), modes(ids.size()),
      tos(ids.size()), carrier_ids(ids.size());
  std::string sent_before = formatIso(window.before), since = formatIso(window.after);
  *sql << "SELECT id, mode, to_number, carrier_message_id FROM messages WHERE status = "
          "'SENDING' AND sent_at < :before::timestamptz AND sent_at > :since::timestamptz AND "
          "carrier_message_id IS NOT NULL ORDER BY sent_at LIMIT :n",
      soci::use(sent_before), soci::use(since), soci::use(window.batch), soci::into(ids),
      soci::into(modes), soci::into(tos), soci::into(carrier_ids);
  std::vector<AwaitedReceipt> claimed;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (db::claimFix(*sql, "sending", ids[i], window.now, window.wait))
      claimed.push_back({ids[i], modes[i], tos[i], carrier_ids[i]});
  }
  tx.commit();
  return claimed;
}

int republishUnstoredInbound(db::Database& db, const db::FixWindow& window) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  std::vector<long long> ids(static_cast<size_t>(window.batch));
  std::vector<std::string> carrier_ids(ids.size()), txids(ids.size());
  std::string left_before = formatIso(window.before), since = formatIso(window.after);
  // Published (at or below the relay's position) and still no message: one copy per text,
  // claimed by its carrier id, since a copy made earlier is itself such a row.
  *sql << "SELECT DISTINCT ON (c) o.txid::text, o.id, c FROM outbox_published o, "
          "LATERAL (SELECT o.payload::jsonb ->> "
          "'carrier_message_id' AS c) r WHERE o.topic = 'sms.inbound' AND o.created_at > "
          ":since::timestamptz AND o.created_at < :before::timestamptz AND NOT EXISTS (SELECT 1 "
          "FROM messages m WHERE m.carrier_message_id = c) ORDER BY c, o.id LIMIT :n",
      soci::use(since), soci::use(left_before), soci::use(window.batch), soci::into(txids),
      soci::into(ids), soci::into(carrier_ids);
  int republished = 0;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (!db::claimFix(*sql, "inbound", carrier_ids[i], window.now, window.wait)) continue;
    *sql << "INSERT INTO outbox (topic, record_key, payload, request_id, created_at) SELECT "
            "topic, record_key, payload, request_id, created_at FROM outbox WHERE (txid, id) = "
            "(:txid::xid8, :id)",
        soci::use(txids[i]), soci::use(ids[i]);
    ++republished;
  }
  tx.commit();
  return republished;
}

}  // namespace smsgw::messaging
