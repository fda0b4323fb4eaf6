#pragma once
// Webhook endpoints as their owner manages them (spec "Webhook management"): register (the
// signing secret is shown once), read, list, change, delete, reactivate, rotate the secret, and
// the endpoint's attempts and unreplayed dead letters. Every function checks the endpoint is
// the caller's (404, or 403 for another account's) and one a TEST key may manage: a TEST key
// manages only the endpoints TEST keys registered (docs/decisions.md, "Webhooks", Modes). An
// endpoint a connected app's token registers belongs to its OAuth grant and is deleted when the
// grant ends; such a token changes no other endpoint (403 FORBIDDEN).
// Resources come back as the API renders them (the SQL function api_webhook).

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "db/database.h"
#include "domain/caller.h"
#include "domain/clock.h"

namespace smsgw::webhooks {

inline constexpr int kMaxEndpoints = 10;  // per account (WEBHOOK_LIMIT_REACHED)

// `events`: the checked event names. The answer carries signing_secret, shown this once.
nlohmann::json registerEndpoint(db::Database& db, const Caller& caller, const std::string& url,
                                const nlohmann::json& events);
nlohmann::json endpoint(db::Database& db, const Caller& caller, const std::string& id);
// A LIVE key lists every endpoint, a TEST key those TEST keys registered; newest first.
nlohmann::json listEndpoints(db::Database& db, const Caller& caller);

struct EndpointChange {
  std::optional<std::string> url;
  std::optional<nlohmann::json> events;
  std::optional<bool> active;  // true reactivates; false switches off (owed events dead-lettered)
};
nlohmann::json changeEndpoint(db::Database& db, const Caller& caller, const std::string& id,
                              const EndpointChange& change, TimePoint now);
// On again: no streak, nothing missed is resent (spec "Webhook endpoint").
nlohmann::json reactivateEndpoint(db::Database& db, const Caller& caller, const std::string& id);
// A new secret; for 24 hours deliveries carry both signatures (docs/decisions.md, "Webhooks").
// The answer carries the new signing_secret.
nlohmann::json rotateEndpointSecret(db::Database& db, const Caller& caller, const std::string& id,
                                    TimePoint now);
// Gone from every list; its pending retries are dropped.
void deleteEndpoint(db::Database& db, const Caller& caller, const std::string& id, TimePoint now);

// The latest `limit` attempts, newest first.
nlohmann::json endpointDeliveries(db::Database& db, const Caller& caller, const std::string& id,
                                  int limit);
// Dead letters not replayed yet, newest first.
nlohmann::json endpointDeadLetters(db::Database& db, const Caller& caller, const std::string& id);

}  // namespace smsgw::webhooks
