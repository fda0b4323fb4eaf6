#include "services/sending/broadcast_members.h"

#include "services/sending/send_checks.h"

namespace smsgw::sending {

MemberDecision decideMember(const Caller& caller, const E164& from, const MemberStanding& member,
                            bool skip_consent_check, const SendPolicy& policy) {
  MemberDecision decision;
  try {
    auto to = E164::parse(member.to);
    if (!to || !isCanadianNumber(*to)) throw ApiError(ErrorCode::NON_CANADIAN_NUMBER);
    checkDestinationNumber(caller, *to);
    if (caller.live()) {
      checkLiveDestination(member.destination.cached_line_type.value_or("unknown"),
                           member.destination, *to);
    }
    if (isTollFreeNumber(from)) checkDoubleOptIn(member.double_opt_in);
    checkFence(caller, member.fence, *to);
    if (!skip_consent_check) {
      auto consent = compliance::decideConsentFrom(member.consent, member.latest_consent_expired);
      decision.consent_lapsed = member.consent.lapsed;
      if (!consent.allowed) throw ApiError(consent.refusal());
      decision.consent_type = consent.consent_type;
    }
    checkRecipientRate(member.recipient, policy);
  } catch (const ApiError& refused) {
    decision.refusal = refused.code();
  }
  return decision;
}

}  // namespace smsgw::sending
