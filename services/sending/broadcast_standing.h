#pragma once
// What a group broadcast reads before it charges, in two round trips: the group-wide standing
// (the SQL function broadcast_standing) and every member's (broadcast_member_standing, one row
// per member with a number, in the group's order). The checks decide from them
// (broadcast_members.h, broadcast.cpp).

#include <soci/session.h>

#include <optional>
#include <string>
#include <vector>

#include "domain/caller.h"
#include "domain/clock.h"
#include "domain/fence.h"
#include "domain/phone.h"
#include "domain/send_policy.h"
#include "services/compliance/consent_check.h"
#include "services/sending/send_standing.h"

namespace smsgw::sending {

struct BroadcastStanding {
  int members = 0;
  std::optional<int> own_max_members;  // the account's staff-set limits, if any
  std::optional<int> own_per_day;
  int slots_used = 0;     // broadcasts that used a slot in the last 24 h
  int slot_frees_in = 0;  // seconds until the oldest of them frees its slot
  long long balance_cents = 0;
  LiveSenderStanding sender;  // LIVE only
  SendCounts counts;          // the account's daily and fan-out counts, and the part price
};

BroadcastStanding readBroadcastStanding(soci::session& sql, const Caller& caller,
                                        const std::string& group_id, const E164& from,
                                        const std::string& body_sha256, TimePoint now);

// A message an earlier attempt of the same broadcast gave the member.
struct ReachedMessage {
  std::string id;
  std::string status;
  std::optional<std::string> error_code;
};

struct MemberStanding {
  std::string to;
  std::optional<ReachedMessage> reached;  // set: never messaged again
  FencePlacement fence;
  KnownDestination destination;  // LIVE only
  compliance::ConsentStanding consent;
  bool latest_consent_expired = false;
  SendCounts recipient;  // only its recipient_* counts
  bool fanned = false;   // this body reached the member in the last 24 h
  bool double_opt_in = false;
};

// `broadcast_id`: an earlier attempt's, whose messages are then reported, or none.
std::vector<MemberStanding> readMemberStandings(soci::session& sql, const Caller& caller,
                                                const SendPolicy& policy,
                                                const std::optional<std::string>& broadcast_id,
                                                const std::string& group_id, const E164& from,
                                                const std::string& body_sha256, TimePoint now);

}  // namespace smsgw::sending
