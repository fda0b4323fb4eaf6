#include "services/webhooks/dead_letters.h"

#include <soci/soci.h>

#include "db/json_rows.h"
#include "domain/errors.h"
#include "domain/ownership.h"
#include "services/webhooks/delivery_store.h"

namespace smsgw::webhooks {
namespace {

constexpr const char* kDeadLetterJson =
    "SELECT api_webhook_dead_letter(l)::text FROM webhook_dead_letters l WHERE l.id = :id";

// Checks that a dead letter whose endpoint still exists is the caller's, and of an endpoint
// a TEST key may manage (only those TEST keys registered, which only get TEST events).
void requireManagedDeadLetter(soci::session& sql, const Caller& caller, const std::string& id) {
  std::string owner, mode;
  sql << "SELECT l.account_id, w.mode FROM webhook_dead_letters l JOIN webhooks w ON "
         "w.id = l.webhook_id WHERE l.id = :id AND w.deleted_at IS NULL",
      soci::use(id), soci::into(owner), soci::into(mode);
  requireOwnedBy(sql.got_data() ? std::optional(owner) : std::nullopt, caller.account_id);
  if (!caller.live() && mode != "TEST") throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
}

// Holds the dead letter for this replay; a concurrent replay (or a finished one) gets 409.
// A hold older than a minute belongs to a replay that died, and is taken over.
OwedDelivery holdForReplay(soci::session& sql, const std::string& id, TimePoint now) {
  OwedDelivery owed;
  std::string payload;
  std::string at = formatIso(now);
  sql << "UPDATE webhook_dead_letters SET replay_started_at = :now::timestamptz WHERE id = :id "
         "AND replayed_at IS NULL AND (replay_started_at IS NULL OR replay_started_at < "
         ":now2::timestamptz - interval '1 minute') RETURNING webhook_id, account_id, "
         "event_id::text, event_type, payload::text",
      soci::use(at), soci::use(id), soci::use(at), soci::into(owed.endpoint.id),
      soci::into(owed.account_id), soci::into(owed.event.id), soci::into(owed.event.type),
      soci::into(payload);
  if (!sql.got_data()) throw ApiError(ErrorCode::DEAD_LETTER_ALREADY_REPLAYED);
  owed.event.body = nlohmann::json::parse(payload).dump();
  auto endpoint = signingEndpoint(sql, owed.endpoint.id, now);
  if (!endpoint) throw ApiError(ErrorCode::NOT_FOUND);
  owed.endpoint = *endpoint;
  return owed;
}

}  // namespace

nlohmann::json replayDeadLetter(const ReplayServices& services, const Caller& caller,
                                const std::string& id) {
  OwedDelivery owed;
  {
    db::Session sql(services.db);
    requireManagedDeadLetter(*sql, caller, id);
    AccountStatus status = accountStatus(*sql, caller.account_id);
    if (isHeld(status))
      throw ApiError(ErrorCode::ACCOUNT_SUSPENDED, {{"account_status", toString(status)}});
    owed = holdForReplay(*sql, id, services.clock.now());
  }
  // No connection is held while the endpoint answers (up to the delivery timeout).
  DeliveryOutcome outcome =
      deliverWebhook(owed.endpoint, owed.event, services.clock.now(), services.delivery);
  db::Session sql(services.db);
  soci::transaction tx(*sql);
  TimePoint now = services.clock.now();
  recordReplayAttempt(*sql, owed, outcome, now);
  std::string at = formatIso(now);
  if (outcome.success) {
    *sql << "UPDATE webhook_dead_letters SET replayed_at = :now::timestamptz, "
            "replay_started_at = NULL WHERE id = :id",
        soci::use(at), soci::use(id);
  } else {
    *sql << "UPDATE webhook_dead_letters SET replay_started_at = NULL WHERE id = :id",
        soci::use(id);
  }
  auto dead_letter = db::queryJson(*sql, kDeadLetterJson, id);
  tx.commit();
  if (!outcome.success) {
    nlohmann::json details = {{"reason", outcome.reason}};
    if (outcome.http_status) details["http_status"] = *outcome.http_status;
    throw ApiError(ErrorCode::WEBHOOK_REPLAY_FAILED, details);
  }
  return *dead_letter;
}

void dropDeadLetter(db::Database& db, const Caller& caller, const std::string& id) {
  db::Session sql(db);
  requireManagedDeadLetter(*sql, caller, id);
  *sql << "DELETE FROM webhook_dead_letters WHERE id = :id", soci::use(id);
}

}  // namespace smsgw::webhooks
