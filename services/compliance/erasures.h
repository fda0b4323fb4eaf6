#pragma once
// Right to erasure for a subscriber's number (LIVE keys; the account's own numbers are refused).
// Within the account: message bodies are purged and the number is replaced by an opaque token
// in messages, events, opt-in requests, verifications and broadcasts' stored answers; consents
// and the contact holding the number are deleted; published outbox copies are dropped. Kept,
// because the law needs them: opt-outs (the number must stay blocked), allow/deny lists' reach (a
// list that held the number through the contact or its groups holds it as a number entry) and the
// ledger (amounts and message ids, which name no one). The erasure itself is recorded with a
// SHA-256 of the number only. Copies already delivered to webhooks or held by the broker's
// retention are outside this database.

#include <nlohmann/json.hpp>
#include <string>

#include "db/database.h"
#include "domain/clock.h"

namespace smsgw::compliance {

// Erases `phone` (E.164) within the account: {id, phone_number_sha256, counts, created_at}.
// Sends to it that have not reached the carrier are cancelled first and refunded
// (messaging/erased_recipient.h). Throws ApiError CANNOT_ERASE_OWN_NUMBER for the account's
// verified phone or a number it holds.
nlohmann::json eraseSubscriber(db::Database& db, const std::string& account_id,
                               const std::string& phone, TimePoint now);

}  // namespace smsgw::compliance
