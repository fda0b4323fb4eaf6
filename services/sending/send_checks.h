#pragma once
// The checks of POST /v1/messages, in the order the send refuses (nothing is charged or
// stored on any refusal). Those that need the database decide from the one read of
// send_standing.h.

#include <soci/session.h>

#include <string>

#include "db/database.h"
#include "domain/caller.h"
#include "domain/carrier_client.h"
#include "domain/clock.h"
#include "domain/fence.h"
#include "domain/phone.h"
#include "domain/sms_segments.h"
#include "services/sending/send_standing.h"

namespace smsgw::sending {

// Needs no database: RESERVED_DESTINATION, and in TEST mode the magic landline
// (NOT_A_MOBILE_NUMBER).
void checkDestinationNumber(const Caller& caller, const E164& to);

// The carrier's number lookup for a LIVE destination the cache does not know, cached (in its
// own statement: the answer is kept whatever the send decides). "unknown" when the carrier
// cannot answer; that is not cached and lets the send through (the carrier refuses a landline).
std::string lookUpLineType(db::Database& db, CarrierClient& carrier, const E164& to, TimePoint now);

// LIVE: NOT_A_MOBILE_NUMBER for a landline or VoIP line type, then UNDELIVERABLE_NUMBER.
void checkLiveDestination(const std::string& line_type, const KnownDestination& known,
                          const E164& to);

// MESSAGE_TOO_LONG and LINK_SHORTENER_BLOCKED; returns the parts.
SegmentCount checkBody(const std::string& body);

// The sending side: the `from` number (LIVE: owned, not suspended, toll-free verified; toll-free
// in either mode: a confirmed double opt-in from that number), the key's fences,
// ACCOUNT_NOT_VERIFIED, SENDING_PAUSED, and skip_consent_check with a LIVE key.
void checkSender(soci::session& sql, const Caller& caller, const E164& from, const E164& to,
                 bool skip_consent_check, const LiveSenderStanding& live,
                 const FencePlacement& fence);

// Parts of checkSender, for a broadcast that checks its sender once and its members one by one:
// ALLOW_LIST_BLOCKED or DENY_LIST_BLOCKED (domain/fence.h); NO_CONSENT when a toll-free `from`
// has no confirmed double opt-in from `to`; LIVE: ACCOUNT_NOT_VERIFIED, SENDING_PAUSED and
// skip_consent_check (FORBIDDEN).
void checkFence(const Caller& caller, const FencePlacement& fence, const E164& to);
void checkDoubleOptIn(bool confirmed);
void checkLiveAccount(const Caller& caller, bool skip_consent_check,
                      const LiveSenderStanding& live);

// RECIPIENT_RATE_LIMITED (with Retry-After), DAILY_LIMIT_REACHED and FANOUT_LIMIT_REACHED.
void checkSendLimits(const SendCounts& counts, const SendPolicy& policy);
// Each of them alone. `adding`: the messages (the new recipients, for the fan-out) a send
// would add; a broadcast adds many at once.
void checkRecipientRate(const SendCounts& counts, const SendPolicy& policy);
void checkDailyLimit(const SendCounts& counts, const SendPolicy& policy, int adding = 1);
void checkFanout(const SendCounts& counts, const SendPolicy& policy, int adding = 1);

}  // namespace smsgw::sending
