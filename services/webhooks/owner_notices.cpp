#include "services/webhooks/owner_notices.h"

#include <soci/soci.h>

namespace smsgw::webhooks {

int noticeFailingEndpoints(soci::session& sql, Mailer& mailer, TimePoint now) {
  std::string at = formatIso(now);
  soci::rowset<soci::row> rows =
      (sql.prepare << "UPDATE webhooks w SET streak_notified_at = :now::timestamptz FROM accounts "
                      "a WHERE a.id = w.account_id AND w.active AND w.deleted_at IS NULL AND "
                      "w.failing_since <= :now::timestamptz - interval '1 hour' AND "
                      "(w.streak_notified_at IS NULL OR w.streak_notified_at < w.failing_since) "
                      "RETURNING w.id, w.url, a.email, iso_ts(w.failing_since), w.failed_events, "
                      "COALESCE(w.last_failure_reason, '')",
       soci::use(at, "now"));
  int told = 0;
  for (const auto& row : rows) {
    mailer.send({row.get<std::string>(2),
                 "[SMS gateway] Webhook endpoint failing: " + row.get<std::string>(1),
                 "Deliveries to webhook " + row.get<std::string>(0) + " (" +
                     row.get<std::string>(1) + ") have failed since " + row.get<std::string>(3) +
                     ": " + std::to_string(row.get<int>(4)) + " events, last failure " +
                     row.get<std::string>(5) +
                     ".\nFailed events are retried for about 24 hours. The endpoint is disabled "
                     "after 24 hours of failures with at least 5 failed events."});
    ++told;
  }
  return told;
}

void noticeDisabledEndpoint(soci::session& sql, Mailer& mailer, const std::string& webhook_id) {
  std::string url, email, reason;
  sql << "SELECT w.url, a.email, COALESCE(w.deactivated_reason, '') FROM webhooks w JOIN "
         "accounts a ON a.id = w.account_id WHERE w.id = :webhook",
      soci::use(webhook_id, "webhook"), soci::into(url), soci::into(email), soci::into(reason);
  if (!sql.got_data()) return;
  mailer.send({email, "[SMS gateway] Webhook endpoint disabled: " + url,
               "Webhook " + webhook_id + " (" + url + ") was disabled: " + reason +
                   ".\nEvents that failed are kept as dead letters you can replay. Events "
                   "raised while it is disabled are not kept. POST /v1/webhooks/" +
                   webhook_id + "/reactivate turns it on again."});
}

}  // namespace smsgw::webhooks
