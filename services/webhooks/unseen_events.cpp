#include "services/webhooks/unseen_events.h"

#include <soci/soci.h>

#include <nlohmann/json.hpp>

#include "db/fix_claims.h"
#include "db/outbox.h"
#include "topics/catalogue.h"
#include "topics/records.h"

namespace smsgw::webhooks {

int republishUnseenEvents(db::Database& db, const db::FixWindow& window) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  std::vector<std::string> ids(static_cast<size_t>(window.batch)), accounts(ids.size()),
      types(ids.size()), created(ids.size()), data(ids.size());
  std::vector<int> livemode(ids.size());
  std::string raised_before = formatIso(window.before), since = formatIso(window.after);
  // Driven by the active endpoints (few), each reading its account's events of the window.
  *sql << "SELECT DISTINCT e.id::text, e.account_id, e.type, iso_ts(e.created_at), "
          "e.livemode::int, e.data::text FROM webhooks w JOIN events e ON e.account_id = "
          "w.account_id AND e.created_at > :since::timestamptz AND e.created_at < "
          ":before::timestamptz AND e.created_at >= w.created_at AND w.events ? e.type AND "
          "(w.mode = 'LIVE' OR NOT e.livemode) WHERE w.active AND w.deleted_at IS NULL AND "
          "NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.webhook_id = w.id AND "
          "d.event_id = e.id) AND NOT EXISTS (SELECT 1 FROM webhook_retries r WHERE "
          "r.webhook_id = w.id AND r.event_id = e.id) AND NOT EXISTS (SELECT 1 FROM "
          "webhook_dead_letters l WHERE l.webhook_id = w.id AND l.event_id = e.id) LIMIT :batch",
      soci::use(since, "since"), soci::use(raised_before, "before"),
      soci::use(window.batch, "batch"), soci::into(ids), soci::into(accounts), soci::into(types),
      soci::into(created), soci::into(livemode), soci::into(data);
  int republished = 0;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (!db::claimFix(*sql, "event", ids[i], window.now, window.wait)) continue;
    topics::EventRecord record{ids[i],      types[i],         created[i],
                               accounts[i], livemode[i] != 0, nlohmann::json::parse(data[i])};
    db::enqueueOutbox(*sql, std::string(topics::kEvents.name), accounts[i], record.toJson().dump());
    ++republished;
  }
  tx.commit();
  return republished;
}

}  // namespace smsgw::webhooks
