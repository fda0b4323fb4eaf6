#pragma once
// The SQL functions of the sender's claim (db/functions): claim_handoff records that a LIVE
// message's hand-off starts now, when it is still queued, unstarted and due; handoff_state says
// why a claim found nothing (procedure.h says how they are called).

#include <soci/session.h>

#include <optional>
#include <string>

#include "db/procedures/procedure.h"
#include "domain/clock.h"

namespace smsgw::db {

struct HandoffClaimRequest {
  std::string message_id;
  TimePoint now;
};

// What the carrier call needs.
struct ClaimedHandoff {
  std::string account_id, from_number, to_number;
  std::optional<std::string> body;  // none: a verification's, texted from its sealed code
  bool is_verification = false;
  long long cost_cents = 0;
  int send_attempt = 0;
  int part_price_cents = 0;
};

extern const Procedure kClaimHandoff;

// nullopt when the message is not ours to hand over now (settled, started or not yet due).
std::optional<ClaimedHandoff> claimHandoff(soci::session& sql, const HandoffClaimRequest& request);

struct HandoffStateRequest {
  std::string message_id;
  int stale_seconds = 0;  // a hand-off started longer ago than this is stale
  TimePoint now;
};

struct HandoffState {
  bool queued = false;
  bool started = false;
  bool stale = false;
};

extern const Procedure kHandoffState;

// nullopt when there is no such LIVE message.
std::optional<HandoffState> handoffState(soci::session& sql, const HandoffStateRequest& request);

}  // namespace smsgw::db
