#pragma once
// A broadcast's per-member checks (spec: consent, opt-out, recipient limits and the key's fence
// are results, not errors): the checks of a single send that concern the recipient, in the
// order a send refuses, decided from one member's standing without another round trip. The
// rules are the single send's own functions (send_checks.h, consent_check.h).

#include <optional>
#include <string>

#include "domain/caller.h"
#include "domain/errors.h"
#include "domain/phone.h"
#include "domain/send_policy.h"
#include "services/sending/broadcast_standing.h"

namespace smsgw::sending {

struct MemberDecision {
  std::optional<ErrorCode> refusal;         // set: the member is not messaged
  std::optional<std::string> consent_type;  // EXPRESS or IMPLIED when allowed; none when skipped
  bool consent_lapsed = false;              // an implied consent the check marks EXPIRED
};

// NON_CANADIAN_NUMBER, RESERVED_DESTINATION, NOT_A_MOBILE_NUMBER (a TEST magic landline; LIVE:
// a cached landline or VoIP line type), UNDELIVERABLE_NUMBER, NO_CONSENT for a toll-free `from`
// without double opt-in, ALLOW_LIST_BLOCKED, DENY_LIST_BLOCKED, OPT_OUT_BLOCKED, NO_CONSENT,
// CONSENT_EXPIRED and RECIPIENT_RATE_LIMITED. A LIVE member whose line type is not cached is
// not looked up (the carrier refuses a landline and the charge is refunded): a broadcast does
// not wait on one carrier call per member.
MemberDecision decideMember(const Caller& caller, const E164& from, const MemberStanding& member,
                            bool skip_consent_check, const SendPolicy& policy);

}  // namespace smsgw::sending
