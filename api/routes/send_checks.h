#pragma once
// The checks of POST /v1/messages, in the order the send refuses (nothing is charged or
// stored on any refusal), and the per-number pacing slot of an accepted LIVE send.

#include <soci/session.h>

#include <string>

#include "api/app.h"
#include "api/http/api_types.h"
#include "domain/phone.h"
#include "domain/sms_segments.h"

namespace smsgw::api {

// RESERVED_DESTINATION, NOT_A_MOBILE_NUMBER (the carrier's lookup, cached; TEST mode uses the
// magic landline instead) and UNDELIVERABLE_NUMBER.
void checkDestination(App& app, const Caller& caller, const E164& to);

// MESSAGE_TOO_LONG and LINK_SHORTENER_BLOCKED; returns the parts.
SegmentCount checkBody(const std::string& body);

// The sending side: the `from` number (LIVE: owned, not suspended, toll-free verified; toll-free
// in either mode: a confirmed double opt-in from that number), the key's fences,
// ACCOUNT_NOT_VERIFIED, SENDING_PAUSED, and skip_consent_check with a LIVE key.
void checkSender(soci::session& sql, const Caller& caller, const E164& from, const E164& to,
                 bool skip_consent_check);

// RECIPIENT_RATE_LIMITED (with Retry-After), DAILY_LIMIT_REACHED and FANOUT_LIMIT_REACHED.
// Returns the outbound part price, read in the same round trip as the counts.
int checkSendLimits(soci::session& sql, const Caller& caller, const SendPolicy& policy,
                    const E164& to, const std::string& body_sha256);

}  // namespace smsgw::api
