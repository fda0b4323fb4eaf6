// Top-ups through the payment provider. The charge is recorded PENDING before the provider is
// called (its id is the provider's idempotency key), so a crash can never credit twice or
// lose a charge without a trace; the credit, the ledger row, account activation and the rent of
// numbers suspended for want of funds commit together.
#include <soci/soci.h>

#include <optional>

#include "api/routes/json_rows.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "db/ledger.h"
#include "domain/errors.h"
#include "domain/ids.h"
#include "services/numbers/rent.h"

namespace smsgw::api {
namespace {

constexpr long long kMinTopUpCents = 500;
constexpr long long kMaxTopUpCents = 1'000'000;

nlohmann::json topUpResource(soci::session& sql, const std::string& id) {
  auto doc = queryJson(
      sql,
      "SELECT jsonb_build_object('id', t.id, 'amount_cents', t.amount_cents, 'status', t.status, "
      "'decline_reason', t.decline_reason, 'balance_cents', a.balance_cents, "
      "'account_status', a.status, 'created_at', iso_ts(t.created_at))::text "
      "FROM top_ups t JOIN accounts a ON a.id = t.account_id WHERE t.id = :id",
      id);
  return *doc;
}

ApiResponse answerFor(soci::session& sql, const std::string& id) {
  nlohmann::json resource = topUpResource(sql, id);
  if (resource["status"] == "DECLINED") {
    throw ApiError(ErrorCode::PAYMENT_DECLINED,
                   {{"top_up_id", id}, {"decline_reason", resource["decline_reason"]}});
  }
  if (resource["status"] == "PENDING")
    throw ApiError(ErrorCode::CONFLICT, {{"reason", "top_up_in_progress"}});
  return ApiResponse::json(201, resource);
}

// The answer a top-up already made with this Idempotency-Key gave, if there is one.
std::optional<ApiResponse> replayOf(soci::session& sql, const std::string& account_id,
                                    const std::string& idempotency_key, long long amount) {
  std::string existing_id;
  long long existing_amount = 0;
  sql << "SELECT id, amount_cents FROM top_ups WHERE account_id = :a AND idempotency_key = :k",
      soci::use(account_id), soci::use(idempotency_key), soci::into(existing_id),
      soci::into(existing_amount);
  if (!sql.got_data()) return std::nullopt;
  if (existing_amount != amount) throw ApiError(ErrorCode::IDEMPOTENCY_KEY_REUSED);
  return answerFor(sql, existing_id);
}

ApiResponse createTopUp(App& app, ApiRequest& req) {
  requireOwnAccountPath(req);
  if (!req.who().live()) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
  const auto& body = requireObjectBody(req);
  long long amount = requireInteger(body, "amount_cents", kMinTopUpCents, kMaxTopUpCents);
  std::string token = requireString(body, "payment_token", 200);
  const std::string& account_id = req.who().account_id;
  std::string idempotency_key = req.header("idempotency-key").value_or("");
  if (idempotency_key.size() > 255)
    throw validationError("Idempotency-Key", "must be at most 255 characters");

  std::string id = newId("topup");
  std::string customer_id;
  // SOCI binds by reference and runs at the end of the statement: bind named values only.
  const std::string provider = app.payments.name();
  {
    db::Session sql(app.db);
    soci::transaction tx(*sql);
    if (!idempotency_key.empty()) {
      if (auto replay = replayOf(*sql, account_id, idempotency_key, amount)) return *replay;
    }
    soci::indicator key_ind = idempotency_key.empty() ? soci::i_null : soci::i_ok;
    std::string inserted;
    // A concurrent top-up with the same key inserted first: this one waits for it to commit,
    // inserts nothing, and answers as a replay of it.
    *sql << "INSERT INTO top_ups (id, account_id, amount_cents, status, provider, idempotency_key) "
            "VALUES (:id, :account, :amount, 'PENDING', :provider, :key) "
            "ON CONFLICT (account_id, idempotency_key) DO NOTHING RETURNING id",
        soci::use(id), soci::use(account_id), soci::use(amount), soci::use(provider),
        soci::use(idempotency_key, key_ind), soci::into(inserted);
    if (!sql->got_data()) {
      tx.rollback();
      return *replayOf(*sql, account_id, idempotency_key, amount);
    }
    *sql << "UPDATE accounts SET payment_customer_id = COALESCE(payment_customer_id, 'cus_' || :p "
            "|| '_' || id) "
            "WHERE id = :id RETURNING payment_customer_id",
        soci::use(provider), soci::use(account_id), soci::into(customer_id);
    tx.commit();
  }

  ChargeResult charge = app.payments.charge(customer_id, amount, token, id);

  db::Session sql(app.db);
  soci::transaction tx(*sql);
  if (charge.succeeded) {
    *sql << "UPDATE top_ups SET status = 'SUCCEEDED', provider_charge_id = :charge WHERE id = :id",
        soci::use(charge.charge_id), soci::use(id);
    db::postLedgerEntry(*sql, {account_id, amount, "top_up", id, "Top-up"});
    *sql << "UPDATE accounts SET status = 'ACTIVE' WHERE id = :id AND status = 'PENDING_PAYMENT'",
        soci::use(account_id);
    // Money arrived: numbers suspended for unpaid rent are paid and active again.
    numbers::reactivateSuspended(*sql, account_id, app.clock.now());
  } else {
    *sql << "UPDATE top_ups SET status = 'DECLINED', decline_reason = :reason WHERE id = :id",
        soci::use(charge.decline_reason), soci::use(id);
  }
  tx.commit();
  return answerFor(*sql, id);
}

}  // namespace

void addTopUpRoutes(Router& router, App& app) {
  RouteOptions options = onSlowLane(needs("account:w"));  // waits on the payment provider
  options.allowed_before_payment = true;
  router.add("POST", "/v1/accounts/{id}/top-ups", options,
             [&app](ApiRequest& r) { return createTopUp(app, r); });
}

}  // namespace smsgw::api
