#include "db/procedures/claim_handoff.h"

#include <soci/soci.h>

#include "db/prepared_statement.h"

namespace smsgw::db {

const Procedure kClaimHandoff{"claim_handoff",
                              {{"p_id", "text"}, {"p_now", "timestamp with time zone"}},
                              "TABLE(account_id text, from_number text, to_number text, body "
                              "text, is_verification boolean, cost_cents bigint, send_attempt "
                              "integer, part_price_cents integer)"};

const Procedure kHandoffState{
    "handoff_state",
    {{"p_id", "text"}, {"p_stale_seconds", "integer"}, {"p_now", "timestamp with time zone"}},
    "TABLE(queued integer, started integer, stale integer)"};

std::optional<ClaimedHandoff> claimHandoff(soci::session& sql, const HandoffClaimRequest& request) {
  // Prepared: one call per message handed off.
  static const PreparedStatement claim(
      "claim_handoff",
      kClaimHandoff.preparedText("account_id, from_number, to_number, body, is_verification::int, "
                                 "cost_cents, send_attempt, part_price_cents"));
  std::vector<Row> rows = claim.run(
      sql,
      kClaimHandoff.inOrder({{"p_id", request.message_id}, {"p_now", formatIso(request.now)}}));
  if (rows.empty()) return std::nullopt;
  Row& row = rows.front();
  ClaimedHandoff claimed;
  claimed.account_id = textOr(row[0]);
  claimed.from_number = textOr(row[1]);
  claimed.to_number = textOr(row[2]);
  claimed.body = std::move(row[3]);
  claimed.is_verification = integerOf(row[4]) != 0;
  claimed.cost_cents = integerOf(row[5]);
  claimed.send_attempt = static_cast<int>(integerOf(row[6]));
  claimed.part_price_cents = static_cast<int>(integerOf(row[7]));
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
