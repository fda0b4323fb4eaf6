#pragma once
// Dead letters as their owner handles them (spec "Dead letter", "Webhook management"): replay
// one to its endpoint now, or drop it. Only a dead letter whose endpoint still exists, is the
// caller's, and belongs to an endpoint a TEST key may manage (those TEST keys registered).

#include <nlohmann/json.hpp>
#include <string>

#include "adapters/webhook_delivery.h"
#include "db/database.h"
#include "domain/caller.h"
#include "domain/clock.h"

namespace smsgw::webhooks {

struct ReplayServices {
  db::Database& db;
  const Clock& clock;
  DeliveryOptions delivery;
};

// Delivered while the caller waits: the dead letter (replayed_at set) on a 2xx; otherwise
// ApiError WEBHOOK_REPLAY_FAILED and it stays for another try. A concurrent replay (or a
// finished one) is DEAD_LETTER_ALREADY_REPLAYED; a hold older than a minute belongs to a replay
// that died and is taken over. ACCOUNT_SUSPENDED for an account not served.
nlohmann::json replayDeadLetter(const ReplayServices& services, const Caller& caller,
                                const std::string& id);
void dropDeadLetter(db::Database& db, const Caller& caller, const std::string& id);

}  // namespace smsgw::webhooks
