#pragma once
// Double opt-in confirmations from toll-free numbers: the subscriber's YES confirms the
// PENDING request (and marks their consent), STOP declines it; requests lapse after 7 days.
// Each works in the caller's transaction; status guards make repeats change nothing.

#include <soci/session.h>

#include <optional>
#include <string>

#include "domain/clock.h"

namespace smsgw::compliance {

inline constexpr int kOptInLifetimeDays = 7;

struct ReplyToOptIn {
  std::string account_id;
  std::string mode;
  std::string account_number;  // the toll-free number that asked (the reply's `to`)
  std::string subscriber;      // who replied (the reply's `from`)
  std::string reply_message_id;
};

// YES: the PENDING request still in time becomes CONFIRMED; the subscriber's ACTIVE consents
// record the confirmation, or an express consent is recorded when there is none. Returns the
// confirmation id, or nothing when no request was pending.
std::optional<std::string> confirmOptIn(soci::session& sql, const ReplyToOptIn& reply,
                                        TimePoint now);
// STOP: a PENDING request becomes DECLINED.
void declineOptIn(soci::session& sql, const ReplyToOptIn& reply);
// Marks the account's PENDING requests past their 7 days EXPIRED.
void expireOptIns(soci::session& sql, const std::string& account_id, TimePoint now);

}  // namespace smsgw::compliance
