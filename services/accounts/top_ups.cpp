#include "services/accounts/top_ups.h"

#include <soci/soci.h>

#include <optional>

#include "db/json_rows.h"
#include "db/ledger.h"
#include "domain/errors.h"
#include "domain/ids.h"
#include "services/numbers/rent.h"

namespace smsgw::accounts {
namespace {

nlohmann::json topUpResource(soci::session& sql, const std::string& id) {
  auto doc = db::queryJson(
      sql,
      "SELECT jsonb_build_object('id', t.id, 'amount_cents', t.amount_cents, 'status', t.status, "
      "'decline_reason', t.decline_reason, 'balance_cents', a.balance_cents, "
      "'account_status', a.status, 'created_at', iso_ts(t.created_at))::text "
      "FROM top_ups t JOIN accounts a ON a.id = t.account_id WHERE t.id = :id",
      id);
  return *doc;
}

nlohmann::json answerFor(soci::session& sql, const std::string& id) {
  nlohmann::json resource = topUpResource(sql, id);
  if (resource["status"] == "DECLINED") {
    throw ApiError(ErrorCode::PAYMENT_DECLINED,
                   {{"top_up_id", id}, {"decline_reason", resource["decline_reason"]}});
  }
  if (resource["status"] == "PENDING")
    throw ApiError(ErrorCode::CONFLICT, {{"reason", "top_up_in_progress"}});
  return resource;
}

// The answer a top-up already made with this Idempotency-Key gave, if there is one.
std::optional<nlohmann::json> replayOf(soci::session& sql, const std::string& account_id,
                                       const std::string& idempotency_key, long long amount) {
  std::string existing_id;
  long long existing_amount = 0;
  sql << "SELECT id, amount_cents FROM top_ups WHERE account_id = :account "
         "AND idempotency_key = :key",
      soci::use(account_id, "account"), soci::use(idempotency_key, "key"), soci::into(existing_id),
      soci::into(existing_amount);
  if (!sql.got_data()) return std::nullopt;
  if (existing_amount != amount) throw ApiError(ErrorCode::IDEMPOTENCY_KEY_REUSED);
  return answerFor(sql, existing_id);
}

}  // namespace

nlohmann::json topUp(const TopUpServices& services, const std::string& account_id, long long amount,
                     const std::string& token, const std::string& idempotency_key) {
  std::string id = newId("topup");
  std::string customer_id;
  // SOCI binds by reference and runs at the end of the statement: bind named values only.
  const std::string provider = services.payments.name();
  {
    db::Session sql(services.db);
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
        soci::use(id, "id"), soci::use(account_id, "account"), soci::use(amount, "amount"),
        soci::use(provider, "provider"), soci::use(idempotency_key, key_ind, "key"),
        soci::into(inserted);
    if (!sql->got_data()) {
      tx.rollback();
      return *replayOf(*sql, account_id, idempotency_key, amount);
    }
    *sql << "UPDATE accounts SET payment_customer_id = COALESCE(payment_customer_id, 'cus_' || "
            ":provider || '_' || id) WHERE id = :account RETURNING payment_customer_id",
        soci::use(provider, "provider"), soci::use(account_id, "account"), soci::into(customer_id);
    tx.commit();
  }

  ChargeResult charge = services.payments.charge(customer_id, amount, token, id);

  db::Session sql(services.db);
  soci::transaction tx(*sql);
  if (charge.succeeded) {
    *sql << "UPDATE top_ups SET status = 'SUCCEEDED', provider_charge_id = :charge WHERE id = :id",
        soci::use(charge.charge_id, "charge"), soci::use(id, "id");
    db::postLedgerEntry(*sql, {account_id, amount, "top_up", id, "Top-up"});
    *sql << "UPDATE accounts SET status = 'ACTIVE' WHERE id = :account "
            "AND status = 'PENDING_PAYMENT'",
        soci::use(account_id, "account");
    // Money arrived: numbers suspended for unpaid rent are paid and active again.
    numbers::reactivateSuspended(*sql, account_id, services.clock.now());
  } else {
    *sql << "UPDATE top_ups SET status = 'DECLINED', decline_reason = :reason WHERE id = :id",
        soci::use(charge.decline_reason, "reason"), soci::use(id, "id");
  }
  tx.commit();
  return answerFor(*sql, id);
}

}  // namespace smsgw::accounts
