#pragma once
// The one place that decides whether a text may go to a subscriber under CASL: every 451 the
// API answers (consent check route, sends, broadcasts) comes from here.
// An opt-out in force refuses first; then express consent, then unexpired implied consent,
// allows. Implied consent found past its expiry is marked EXPIRED by the check itself.
// Works in the caller's transaction; TEST and LIVE records never mix (`mode`).

#include <soci/session.h>

#include <optional>
#include <string>
#include <vector>

#include "domain/clock.h"
#include "domain/errors.h"

namespace smsgw::compliance {

struct ConsentDecision {
  bool allowed = false;
  std::string consent_type;  // EXPRESS or IMPLIED, when allowed
  std::string reason;        // OPT_OUT, NO_CONSENT or CONSENT_EXPIRED, when refused

  // The 451 to answer for a refusal: OPT_OUT_BLOCKED, NO_CONSENT or CONSENT_EXPIRED.
  ErrorCode refusal() const;
};

// What the database holds for one subscriber: the consent check's one read (the SQL function
// consent_standing; a send reads the same columns within send_standing).
struct ConsentStanding {
  bool opted_out = false;                   // an opt-out in force
  std::optional<std::string> consent_type;  // the best consent in force
  bool lapsed = false;  // an implied consent past its expiry, not yet marked EXPIRED
};

// The decision from a standing, given whether the subscriber's latest consent record has
// expired (a lapsed implied consent counts): a refusal is CONSENT_EXPIRED then, else
// NO_CONSENT. Pure: a broadcast decides every member from one read with it.
ConsentDecision decideConsentFrom(const ConsentStanding& standing, bool latest_expired);

// Marks EXPIRED the ACTIVE implied consents of these subscribers that have lapsed by `now`
// (the SQL function implied_consent_lapsed says when): the one write of consent expiry, for one
// send's check and a broadcast's members alike.
void expireLapsedConsents(soci::session& sql, const std::string& account_id,
                          const std::string& mode, const std::vector<std::string>& phone_numbers,
                          TimePoint now);

// Decides from a standing already read: marks a lapsed implied consent EXPIRED and, on a
// refusal, reads whether the latest consent expired (CONSENT_EXPIRED) or never was (NO_CONSENT).
ConsentDecision decideConsent(soci::session& sql, const std::string& account_id,
                              const std::string& mode, const std::string& phone_number,
                              const ConsentStanding& standing, TimePoint now);

// Reads the standing, then decides. `from_number`: the sending number, whose opt-outs refuse.
// Without it (the check route), an opt-out from any of the account's numbers refuses.
ConsentDecision checkConsent(soci::session& sql, const std::string& account_id,
                             const std::string& mode, const std::string& phone_number,
                             const std::optional<std::string>& from_number, TimePoint now);

}  // namespace smsgw::compliance
