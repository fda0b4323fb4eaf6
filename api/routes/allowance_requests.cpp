// Allowance requests: an account asks for a higher phone-number limit; staff decide with
// smsgw-admin. One PENDING request at a time, three a day (rolling 24 hours).
#include <soci/soci.h>

#include "api/routes/json_rows.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/errors.h"
#include "domain/ids.h"

namespace smsgw::api {
namespace {

constexpr int kRequestsPerDay = 3;
constexpr long long kMaxRequestedLimit = 10'000;

ApiResponse list(App& app, ApiRequest& req) {
  db::Session sql(app.db);
  return ApiResponse::json(
      200,
      {{"data", queryJsonArray(*sql,
                               "SELECT api_allowance_request(r)::text FROM allowance_requests r "
                               "WHERE r.account_id = :a ORDER BY r.created_at DESC, r.id DESC",
                               req.who().account_id)}});
}

ApiResponse create(App& app, ApiRequest& req) {
  if (!req.who().live()) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  const auto& body = requireObjectBody(req);
  int requested = static_cast<int>(requireInteger(body, "requested_limit", 1, kMaxRequestedLimit));
  std::string reason = requireString(body, "reason", 1000);
  const std::string& account_id = req.who().account_id;

  db::Session sql(app.db);
  soci::transaction tx(*sql);
  int limit = 0, held = 0;
  // The account row lock serializes requests of one account, so the checks below hold.
  *sql << "SELECT phone_number_limit FROM accounts WHERE id = :id FOR UPDATE",
      soci::use(account_id), soci::into(limit);
  if (requested <= limit) {
    throw ApiError(ErrorCode::INVALID_ALLOWANCE_REQUEST,
                   {{"current_limit", limit}, {"requested_limit", requested}});
  }
  std::string pending_id;
  *sql << "SELECT id FROM allowance_requests WHERE account_id = :a AND status = 'PENDING'",
      soci::use(account_id), soci::into(pending_id);
  if (sql->got_data()) {
    throw ApiError(ErrorCode::ALLOWANCE_REQUEST_PENDING, {{"allowance_request_id", pending_id}});
  }
  int recent = 0, retry_after = 0;
  *sql << "SELECT count(*), COALESCE(ceil(extract(epoch FROM min(created_at) + interval '24 "
          "hours' - now())), 0)::int FROM (SELECT created_at FROM allowance_requests "
          "WHERE account_id = :a AND created_at > now() - interval '24 hours' "
          "ORDER BY created_at DESC LIMIT :n) recent",
      soci::use(account_id), soci::use(kRequestsPerDay), soci::into(recent),
      soci::into(retry_after);
  if (recent >= kRequestsPerDay) {
    throw ApiError(ErrorCode::RATE_LIMITED,
                   {{"reason", "allowance_requests_per_day"}, {"limit", kRequestsPerDay}},
                   std::max(1, retry_after));
  }
  *sql << "SELECT count(*) FROM phone_numbers WHERE account_id = :a "
          "AND status IN ('ACTIVE', 'SUSPENDED')",
      soci::use(account_id), soci::into(held);
  std::string id = newId("alw");
  *sql << "INSERT INTO allowance_requests (id, account_id, requested_limit, limit_at_request, "
          "held_at_request, reason) VALUES (:id, :a, :r, :l, :h, :why)",
      soci::use(id), soci::use(account_id), soci::use(requested), soci::use(limit), soci::use(held),
      soci::use(reason);
  auto created = queryJson(
      *sql, "SELECT api_allowance_request(r)::text FROM allowance_requests r WHERE r.id = :id", id);
  tx.commit();
  return ApiResponse::json(201, *created);
}

}  // namespace

void addAllowanceRequestRoutes(Router& router, App& app) {
  router.add("GET", "/v1/phone-numbers/allowance-requests", needs("phone_numbers:r"),
             [&app](ApiRequest& r) { return list(app, r); });
  router.add("POST", "/v1/phone-numbers/allowance-requests", needs("phone_numbers:w"),
             [&app](ApiRequest& r) { return create(app, r); });
}

}  // namespace smsgw::api
