#pragma once
// POST /v1/messages' transaction. One read of everything the checks need (send_standing.h),
// the checks in the order the send refuses (send_checks.h; nothing is charged or stored on any
// refusal), then the charge (parts × the outbound price, LIVE only), the pacing slot, the
// message, its event and its sms.outbound record in one call (accept_outbound_message).
// Idempotency-Key: the same key returns the same message; a message that failed before
// reaching the carrier is queued again (a new attempt, charged again) under the same id, as the
// spec's message table says.

#include <soci/session.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "db/database.h"
#include "domain/caller.h"
#include "domain/clock.h"
#include "domain/phone.h"
#include "domain/send_policy.h"
#include "topics/outbox_relay.h"

namespace smsgw::sending {

struct SendRequest {
  E164 from;
  E164 to;
  std::string body;
  bool skip_consent_check = false;
  std::string idempotency_key;  // empty: none
  std::string fingerprint;      // what the key must keep meaning (from, to, body)
};

struct SendServices {
  db::Database& db;
  topics::OutboxRelay& relay;
  const Clock& clock;
  const SendPolicy& policy;
};

// A caller the HTTP edge took from its cache is a guess, confirmed in the send's own
// transaction before anything is decided from it (api/http/caller_cache.h).
struct CallerConfirmation {
  std::optional<std::string> key_hash;  // set: read the key's row beside the send's columns
  // Called once per transaction with that row, or with nullptr when the send read nothing
  // (a replay): it then reads the row itself. Throws to abandon the send.
  std::function<void(soci::session&, const std::optional<std::string>* key_row, TimePoint now)>
      confirm;
};

// The accepted message as the API renders it, estimated_send_at included. nullopt when the
// LIVE destination's line type is neither cached nor `looked_up`: the caller asks the carrier
// (lookUpLineType, outside any transaction: no pooled connection waits on the carrier) and
// tries again. Throws ApiError for each refusal.
std::optional<nlohmann::json> acceptSend(const SendServices& services, const Caller& caller,
                                         const SendRequest& send,
                                         const CallerConfirmation& confirmation,
                                         const std::optional<std::string>& looked_up);

}  // namespace smsgw::sending
