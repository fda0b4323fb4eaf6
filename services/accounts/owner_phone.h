#pragma once
// Owner phone verification: a code by SMS from the platform's sender, then confirmation.
// Codes expire after 10 minutes and allow 5 wrong tries, counted across resends: after the
// fifth the code is locked until it expires, and no new one is sent meanwhile. An account that
// has not paid can still ask for codes, so the texts are limited: one every 30 seconds
// (OWNER_CODE_RESEND_SECONDS), 5 a day per account and 3 a day to one number, whoever asks.
// A code is stored only as an HMAC under a server secret (VERIFICATION_CODE_SECRET): a dump of
// the database alone does not give it back, as a plain hash of a six-digit code would. Every
// time is the caller's `now`.

#include <nlohmann/json.hpp>
#include <string>

#include "db/database.h"
#include "domain/carrier_client.h"
#include "domain/clock.h"
#include "domain/phone.h"

namespace smsgw::accounts {

struct OwnerPhoneSettings {
  std::string code_secret;      // VERIFICATION_CODE_SECRET: the key of the codes' HMAC
  int resend_seconds = 30;      // OWNER_CODE_RESEND_SECONDS
  std::string platform_sender;  // the number the platform's texts leave from
};

struct OwnerPhoneServices {
  db::Database& db;
  CarrierClient& carrier;
  const OwnerPhoneSettings& settings;
};

// Texts a new code to `phone`: {status: code_sent, phone_number, expires_at}. Throws ApiError
// VERIFICATION_MAX_ATTEMPTS (locked), RATE_LIMITED (with Retry-After) or a carrier error.
nlohmann::json sendOwnerCode(const OwnerPhoneServices& services, const std::string& account_id,
                             const E164& phone, TimePoint now);
// Checks the code; on success the account's verified phone is `phone`, and the answer is the
// account. Throws ApiError VERIFICATION_NOT_FOUND, _EXPIRED, _MAX_ATTEMPTS or _INVALID_CODE
// (with attempts_remaining).
nlohmann::json confirmOwnerCode(const OwnerPhoneServices& services, const std::string& account_id,
                                const E164& phone, const std::string& code, TimePoint now);

}  // namespace smsgw::accounts
