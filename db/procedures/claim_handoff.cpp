#include "db/procedures/claim_handoff.h"

#include <soci/soci.h>

namespace smsgw::db {

const Procedure kClaimHandoff{"claim_handoff",
                              {{"p_id", "text"}, {"p_now", "timestamp with time zone"}},
                              "TABLE(account_id text, from_number text, to_number text, body "
                              "text, cost_cents bigint, send_attempt integer, part_price_cents "
                              "integer)"};

const Procedure kHandoffState{
    "handoff_state",
    {{"p_id", "text"}, {"p_stale_seconds", "integer"}, {"p_now", "timestamp with time zone"}},
    "TABLE(queued integer, started integer, stale integer)"};

std::optional<ClaimedHandoff> claimHandoff(soci::session& sql, const HandoffClaimRequest& request) {
  std::string at = formatIso(request.now);
  ClaimedHandoff claimed;
  std::string body;
  soci::indicator body_ind = soci::i_null;
  sql << kClaimHandoff.callText("*"), soci::use(request.message_id, "p_id"), soci::use(at, "p_now"),
      soci::into(claimed.account_id), soci::into(claimed.from_number),
      soci::into(claimed.to_number), soci::into(body, body_ind), soci::into(claimed.cost_cents),
      soci::into(claimed.send_attempt), soci::into(claimed.part_price_cents);
  if (!sql.got_data()) return std::nullopt;
  if (body_ind == soci::i_ok) claimed.body = std::move(body);
  return claimed;
}

std::optional<HandoffState> handoffState(soci::session& sql, const HandoffStateRequest& request) {
  std::string at = formatIso(request.now);
  int queued = 0, started = 0, stale = 0;
  sql << kHandoffState.callText("*"), soci::use(request.message_id, "p_id"),
      soci::use(request.stale_seconds, "p_stale_seconds"), soci::use(at, "p_now"),
      soci::into(queued), soci::into(started), soci::into(stale);
  if (!sql.got_data()) return std::nullopt;
  return HandoffState{queued != 0, started != 0, stale != 0};
}

}  // namespace smsgw::db
