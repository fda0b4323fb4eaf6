#pragma once
// The compliance registers as the account reads and writes them through the API: consents and
// opt-outs of the caller's mode (records of one mode count only for that mode). Each call is its
// own transaction over records.h and consent_check.h.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "db/database.h"
#include "domain/caller.h"
#include "domain/clock.h"
#include "services/compliance/consent_check.h"
#include "services/compliance/records.h"

namespace smsgw::compliance {

// Newest first; empty filters mean "any".
nlohmann::json consentPage(db::Database& db, const Caller& caller, const std::string& phone,
                           const std::string& status, int limit, int offset);
void recordApiConsent(db::Database& db, const Caller& caller, const ConsentDraft& draft);
// The one consent check (it may mark a lapsed consent EXPIRED).
ConsentDecision checkConsentNow(db::Database& db, const Caller& caller, const std::string& phone,
                                const std::optional<std::string>& from, TimePoint now);
// Revokes the number's ACTIVE consents; NOT_FOUND (no_active_consent) when there were none.
void revokeApiConsents(db::Database& db, const Caller& caller, const std::string& phone,
                       TimePoint now);

nlohmann::json optOutPage(db::Database& db, const Caller& caller, const std::string& phone,
                          const std::string& from, int limit, int offset);
// An opt-out recorded by the account (no opt_out.recorded event: spec "Opt-out"). A LIVE key
// names a number the account holds (PHONE_NUMBER_NOT_OWNED otherwise).
void recordApiOptOut(db::Database& db, const Caller& caller, const std::string& phone,
                     const std::string& from, TimePoint now);

}  // namespace smsgw::compliance
