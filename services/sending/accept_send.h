#pragma once
// POST /v1/messages' transaction. One read of everything the checks need (send_standing.h),
// the checks in the order the send refuses (send_checks.h; nothing is charged or stored on any
// refusal), then the charge (parts × the outbound price, LIVE only), the pacing slot, the
// message, its event and its sms.outbound record in one call (accept_outbound_message).
// Idempotency-Key: the same key returns the same message; a message that failed before
// reaching the carrier is queued again (a new attempt, charged again) under the same id, as the
// spec's message table says.

#include <soci/session.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "db/database.h"
#include "domain/caller.h"
#include "domain/clock.h"
#include "domain/phone.h"
#include "domain/send_policy.h"
#include "services/accounts/key_callers.h"
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

// The accepted message as the API renders it, estimated_send_at included. nullopt when the
// LIVE destination's line type is neither cached nor `looked_up`: the caller asks the carrier
// (lookUpLineType, outside any transaction: no pooled connection waits on the carrier) and
// tries again. A guessed caller is confirmed in the send's own transaction before anything is
// decided from it (the key's row is read beside the send's columns). Throws ApiError for each
// refusal, and accounts::CallerChanged when the guess was wrong.
std::optional<nlohmann::json> acceptSend(const SendServices& services,
                                         const accounts::CallerGuess& who, const SendRequest& send,
                                         const std::optional<std::string>& looked_up);

}  // namespace smsgw::sending
