// Dead letters (spec "Dead letter", "Webhook management"): replay one to its endpoint now, or
// drop it. A replay is delivered while the caller waits: 200 with the dead letter (replayed_at
// set) on a 2xx, 502 WEBHOOK_REPLAY_FAILED otherwise, and it stays queued for another try.
#include <soci/soci.h>

#include "adapters/webhook_delivery.h"
#include "api/routes/json_rows.h"
#include "api/routes/routes.h"
#include "domain/errors.h"
#include "services/webhooks/delivery_store.h"

namespace smsgw::api {
namespace {

constexpr const char* kDeadLetterJson =
    "SELECT api_webhook_dead_letter(l)::text FROM webhook_dead_letters l WHERE l.id = :id";

// Checks that a dead letter whose endpoint still exists is the caller's, and of an endpoint
// a TEST key may manage (only those TEST keys registered, which only get TEST events).
void requireManagedDeadLetter(soci::session& sql, const ApiRequest& req, const std::string& id) {
  std::string owner, mode;
  sql << "SELECT l.account_id, w.mode FROM webhook_dead_letters l JOIN webhooks w ON "
         "w.id = l.webhook_id WHERE l.id = :id AND w.deleted_at IS NULL",
      soci::use(id), soci::into(owner), soci::into(mode);
  requireOwnedBy(sql.got_data() ? std::optional(owner) : std::nullopt, req.who().account_id);
  if (!req.who().live() && mode != "TEST") throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
}

// Holds the dead letter for this replay; a concurrent replay (or a finished one) gets 409.
// A hold older than a minute belongs to a replay that died, and is taken over.
webhooks::OwedDelivery holdForReplay(soci::session& sql, const std::string& id, TimePoint now) {
  webhooks::OwedDelivery owed;
  std::string payload;
  sql << "UPDATE webhook_dead_letters SET replay_started_at = now() WHERE id = :id AND "
         "replayed_at IS NULL AND (replay_started_at IS NULL OR replay_started_at < now() - "
         "interval '1 minute') RETURNING webhook_id, account_id, event_id::text, event_type, "
         "payload::text",
      soci::use(id), soci::into(owed.endpoint.id), soci::into(owed.account_id),
      soci::into(owed.event.id), soci::into(owed.event.type), soci::into(payload);
  if (!sql.got_data()) throw ApiError(ErrorCode::DEAD_LETTER_ALREADY_REPLAYED);
  owed.event.body = nlohmann::json::parse(payload).dump();
  auto endpoint = webhooks::signingEndpoint(sql, owed.endpoint.id, now);
  if (!endpoint) throw ApiError(ErrorCode::NOT_FOUND);
  owed.endpoint = *endpoint;
  return owed;
}

ApiResponse replayDeadLetter(App& app, ApiRequest& req) {
  const auto& id = req.params.at("id");
  webhooks::OwedDelivery owed;
  {
    db::Session sql(app.db);
    requireManagedDeadLetter(*sql, req, id);
    std::string status = webhooks::accountStatus(*sql, req.who().account_id);
    if (!webhooks::deliversFor(status))
      throw ApiError(ErrorCode::ACCOUNT_SUSPENDED, {{"account_status", status}});
    owed = holdForReplay(*sql, id, app.clock.now());
  }
  // No connection is held while the endpoint answers (up to the delivery timeout).
  DeliveryOutcome outcome =
      deliverWebhook(owed.endpoint, owed.event, app.clock.now(),
                     {app.config.webhook_timeout, app.config.allow_private_webhook_targets});
  db::Session sql(app.db);
  soci::transaction tx(*sql);
  webhooks::recordReplayAttempt(*sql, owed, outcome, app.clock.now());
  if (outcome.success) {
    *sql << "UPDATE webhook_dead_letters SET replayed_at = now(), replay_started_at = NULL "
            "WHERE id = :id",
        soci::use(id);
  } else {
    *sql << "UPDATE webhook_dead_letters SET replay_started_at = NULL WHERE id = :id",
        soci::use(id);
  }
  auto dead_letter = queryJson(*sql, kDeadLetterJson, id);
  tx.commit();
  if (!outcome.success) {
    nlohmann::json details = {{"reason", outcome.reason}};
    if (outcome.http_status) details["http_status"] = *outcome.http_status;
    throw ApiError(ErrorCode::WEBHOOK_REPLAY_FAILED, details);
  }
  return ApiResponse::json(200, *dead_letter);
}

ApiResponse deleteDeadLetter(App& app, ApiRequest& req) {
  const auto& id = req.params.at("id");
  db::Session sql(app.db);
  requireManagedDeadLetter(*sql, req, id);
  *sql << "DELETE FROM webhook_dead_letters WHERE id = :id", soci::use(id);
  return ApiResponse::noContent();
}

}  // namespace

void addWebhookDeadLetterRoutes(Router& router, App& app) {
  RouteOptions replay = onSlowLane(needs("webhooks:w"));  // waits for the customer's server
  replay.handles_suspended_accounts = true;               // spec: 409 ACCOUNT_SUSPENDED, not 403
  router.add("POST", "/v1/webhooks/dead-letters/{id}/replay", replay,
             [&app](ApiRequest& r) { return replayDeadLetter(app, r); });
  router.add("DELETE", "/v1/webhooks/dead-letters/{id}", needs("webhooks:d"),
             [&app](ApiRequest& r) { return deleteDeadLetter(app, r); });
}

}  // namespace smsgw::api
