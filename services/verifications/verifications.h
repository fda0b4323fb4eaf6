#pragma once
// SMS verifications (spec Verification; like Twilio Verify): a one-time code texted to a
// subscriber who asked for it, then checked. Codes are 4 to 10 digits (6 by default) from the
// CSPRNG, valid 10 minutes, 5 tries: the fifth wrong one locks the code (max_attempts, 429).
// A code is kept only as an HMAC under VERIFICATION_CODE_SECRET and compared in constant time;
// a LIVE code is also sealed (AES-GCM, a key derived from the same secret) until the sender has
// handed its text to the carrier, then forgotten.
//
// LIVE: charged the price table's `verification` price (one ledger row), texted from `from` (one
// of the account's numbers) or the platform's sender as an ordinary message (is_verification,
// body null: receipts, events, a refund when the carrier refuses it), never paced behind the
// account's other texts. Consent is not needed for a code the subscriber asked for; an opt-out
// still refuses it (451 OPT_OUT_BLOCKED), as do the key's fence, a reserved destination and a
// destination known to be a landline or undeliverable. TEST: no text, no charge, the code is
// `0` repeated code_length times.
//
// Abuse limits per account and mode, per rolling hour (SendPolicy): codes to one number and
// codes in all (429 RATE_LIMITED, Retry-After). A new code for a number supersedes its pending
// one (which then answers 410 VERIFICATION_EXPIRED) and inherits its wrong tries; a locked code
// refuses new ones until it expires. Verifications belong to the key's mode; another account's
// or mode's id is 404 VERIFICATION_NOT_FOUND.

#include <soci/session.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "db/database.h"
#include "domain/caller.h"
#include "domain/clock.h"
#include "domain/phone.h"
#include "domain/send_policy.h"
#include "services/messaging/handoffs.h"
#include "topics/outbox_relay.h"

namespace smsgw::verifications {

struct VerificationSettings {
  std::string code_secret;      // VERIFICATION_CODE_SECRET
  std::string platform_sender;  // the platform's own sending number
};

struct VerificationServices {
  db::Database& db;
  topics::OutboxRelay& relay;
  const Clock& clock;
  const SendPolicy& policy;
  const VerificationSettings& settings;
};

struct NewVerification {
  E164 phone_number;
  std::optional<E164> from;  // none: the platform's sender
  std::optional<std::string> app_name;
  int code_length = 6;
};

inline constexpr int kMaxAttempts = 5;

// 201's Verification. Throws ApiError for each refusal.
nlohmann::json startVerification(const VerificationServices& services, const Caller& caller,
                                 const NewVerification& request);
// 200's Verification (verified). Throws VERIFICATION_NOT_FOUND, VERIFICATION_ALREADY_VERIFIED,
// VERIFICATION_EXPIRED, VERIFICATION_MAX_ATTEMPTS (the fifth wrong try locks it) or
// VERIFICATION_INVALID_CODE (details.attempts_remaining).
nlohmann::json checkVerification(const VerificationServices& services, const Caller& caller,
                                 const std::string& id, const std::string& code);
nlohmann::json verification(db::Database& db, const Caller& caller, const std::string& id,
                            TimePoint now);
// Newest first: {data, total, limit, offset}.
nlohmann::json verificationPage(db::Database& db, const Caller& caller, int limit, int offset,
                                TimePoint now);

// For the sender: the text of a LIVE verification's message, opened from its sealed code;
// nothing when the message is no verification's or its code was already forgotten.
std::optional<std::string> verificationText(db::Database& db, const std::string& code_secret,
                                            const std::string& message_id);
// The carrier's answer for a verification's message (messaging::recordCarrierAnswer), and its
// sealed code dropped, in one transaction: once the carrier has the text, or refused it, the
// code is kept only as its HMAC.
void recordCodeCarrierAnswer(db::Database& db, const messaging::OutgoingMessage& message,
                             const CarrierSendResult& result,
                             const messaging::HandoffDecision& decision, const SendPolicy& policy,
                             TimePoint now);

}  // namespace smsgw::verifications
