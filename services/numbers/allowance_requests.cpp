#include "services/numbers/allowance_requests.h"

#include <soci/soci.h>

#include <algorithm>

#include "db/json_rows.h"
#include "domain/errors.h"
#include "domain/ids.h"

namespace smsgw::numbers {

nlohmann::json allowanceRequests(db::Database& db, const std::string& account_id) {
  db::Session sql(db);
  return db::queryJsonArray(*sql,
                            "SELECT api_allowance_request(r)::text FROM allowance_requests r "
                            "WHERE r.account_id = :account ORDER BY r.created_at DESC, r.id DESC",
                            {{"account", account_id}});
}

nlohmann::json requestAllowance(db::Database& db, const std::string& account_id, int requested,
                                const std::string& reason, TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  int limit = 0, held = 0;
  // The account row lock serializes requests of one account, so the checks below hold.
  *sql << "SELECT phone_number_limit FROM accounts WHERE id = :account FOR UPDATE",
      soci::use(account_id, "account"), soci::into(limit);
  if (requested <= limit) {
    throw ApiError(ErrorCode::INVALID_ALLOWANCE_REQUEST,
                   {{"current_limit", limit}, {"requested_limit", requested}});
  }
  std::string pending_id;
  *sql << "SELECT id FROM allowance_requests WHERE account_id = :account AND status = 'PENDING'",
      soci::use(account_id, "account"), soci::into(pending_id);
  if (sql->got_data()) {
    throw ApiError(ErrorCode::ALLOWANCE_REQUEST_PENDING, {{"allowance_request_id", pending_id}});
  }
  int recent = 0, retry_after = 0;
  std::string at = formatIso(now);
  *sql << "SELECT count(*), COALESCE(ceil(extract(epoch FROM min(created_at) + interval '24 "
          "hours' - :now::timestamptz)), 0)::int FROM (SELECT created_at FROM allowance_requests "
          "WHERE account_id = :account AND created_at > :now::timestamptz - interval '24 hours' "
          "ORDER BY created_at DESC LIMIT :per_day) recent",
      soci::use(at, "now"), soci::use(account_id, "account"),
      soci::use(kAllowanceRequestsPerDay, "per_day"), soci::into(recent), soci::into(retry_after);
  if (recent >= kAllowanceRequestsPerDay) {
    throw ApiError(ErrorCode::RATE_LIMITED,
                   {{"reason", "allowance_requests_per_day"}, {"limit", kAllowanceRequestsPerDay}},
                   std::max(1, retry_after));
  }
  *sql << "SELECT count(*) FROM phone_numbers WHERE account_id = :account "
          "AND status IN ('ACTIVE', 'SUSPENDED')",
      soci::use(account_id, "account"), soci::into(held);
  std::string id = newId("alw");
  *sql << "INSERT INTO allowance_requests (id, account_id, requested_limit, limit_at_request, "
          "held_at_request, reason) VALUES (:id, :account, :requested, :limit, :held, :reason)",
      soci::use(id, "id"), soci::use(account_id, "account"), soci::use(requested, "requested"),
      soci::use(limit, "limit"), soci::use(held, "held"), soci::use(reason, "reason");
  auto created = db::queryJson(
      *sql, "SELECT api_allowance_request(r)::text FROM allowance_requests r WHERE r.id = :id", id);
  tx.commit();
  return *created;
}

}  // namespace smsgw::numbers
