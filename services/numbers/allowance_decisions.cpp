#include "services/numbers/allowance_decisions.h"

#include <soci/soci.h>

#include <stdexcept>

#include "db/json_rows.h"

namespace smsgw::numbers {

nlohmann::json allowanceRequestsForStaff(db::Database& db, const std::string& status,
                                         const std::string& account_id) {
  db::Session sql(db);
  // Staff read many accounts' requests at once, so each carries its account's id.
  return db::queryJsonArray(*sql,
                            "SELECT (api_allowance_request(r)::jsonb "
                            "|| jsonb_build_object('account_id', r.account_id))::text "
                            "FROM allowance_requests r "
                            "WHERE (:status = '' OR r.status = :status) "
                            "AND (:account = '' OR r.account_id = :account) "
                            "ORDER BY r.created_at DESC LIMIT 200",
                            {{"status", status}, {"account", account_id}});
}

std::optional<DecidedAllowance> decideAllowanceRequest(db::Database& db, const std::string& id,
                                                       const AllowanceDecision& decision,
                                                       TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  DecidedAllowance decided;
  *sql << "SELECT r.account_id, r.requested_limit, a.email FROM allowance_requests r "
          "JOIN accounts a ON a.id = r.account_id WHERE r.id = :id AND r.status = 'PENDING' "
          "FOR UPDATE OF r, a",
      soci::use(id, "id"), soci::into(decided.account_id), soci::into(decided.requested),
      soci::into(decided.email);
  if (!sql->got_data()) return std::nullopt;
  decided.granted = decision.granted_limit.value_or(decided.requested);
  if (decision.approve && decided.granted < 1) {
    throw std::invalid_argument("an approval grants at least 1 number");
  }
  soci::indicator granted_indicator = decision.approve ? soci::i_ok : soci::i_null;
  soci::indicator note_indicator = decision.note.empty() ? soci::i_null : soci::i_ok;
  std::string status = decision.approve ? "APPROVED" : "DENIED";
  std::string decided_at = formatIso(now);
  *sql << "UPDATE allowance_requests SET status = :status, granted_limit = :granted, "
          "staff_note = :note, decided_at = :now::timestamptz WHERE id = :id",
      soci::use(status, "status"), soci::use(decided.granted, granted_indicator, "granted"),
      soci::use(decision.note, note_indicator, "note"), soci::use(decided_at, "now"),
      soci::use(id, "id");
  if (decision.approve) {
    // Never lowers a limit: an approval smaller than today's limit changes nothing.
    *sql << "UPDATE accounts SET phone_number_limit = GREATEST(phone_number_limit, :granted) "
            "WHERE id = :account",
        soci::use(decided.granted, "granted"), soci::use(decided.account_id, "account");
  }
  std::string request;
  *sql << "SELECT api_allowance_request(r)::text FROM allowance_requests r WHERE r.id = :id",
      soci::use(id, "id"), soci::into(request);
  tx.commit();
  decided.request = nlohmann::json::parse(request);
  return decided;
}

}  // namespace smsgw::numbers
