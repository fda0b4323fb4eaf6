#include "services/numbers/purchase.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include "db/ledger.h"
#include "domain/area_codes.h"
#include "domain/errors.h"
#include "domain/ids.h"
#include "domain/rent_period.h"

namespace smsgw::numbers {
namespace {

// What the carrier's numbers can do; the simulator and our carrier sell SMS and voice numbers.
constexpr const char* kCapabilities = R"(["sms","voice"])";

struct Purchase {
  std::string id;
  std::string account_id;
  std::string phone_number;
  std::string number_type;
  int monthly_cost_cents = 0;
  int activation_fee_cents = 0;

  long long total() const { return monthly_cost_cents + activation_fee_cents; }
};

int price(soci::session& sql, const std::string& code) {
  int cents = 0;
  sql << "SELECT cents FROM prices WHERE code = :code", soci::use(code), soci::into(cents);
  if (!sql.got_data()) throw std::runtime_error("no price " + code);
  return cents;
}

// The charge and the PENDING purchase, in one transaction; refusals change nothing.
Purchase charge(db::Database& db, const std::string& account_id, const E164& number,
                TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  // Purchases of one account queue here, so the in-flight and limit checks see each other.
  int limit = 0;
  *sql << "SELECT phone_number_limit FROM accounts WHERE id = :id FOR UPDATE",
      soci::use(account_id), soci::into(limit);

  int in_flight = 0;
  *sql << "SELECT count(*) FROM number_purchases WHERE account_id = :a AND status = 'PENDING'",
      soci::use(account_id), soci::into(in_flight);
  if (in_flight) throw ApiError(ErrorCode::PURCHASE_IN_PROGRESS, nullptr, 2);

  std::string holder;
  *sql << "SELECT account_id FROM phone_numbers WHERE phone_number = :n AND status <> 'RELEASED'",
      soci::use(number.str()), soci::into(holder);
  if (sql->got_data()) {
    throw ApiError(ErrorCode::CONFLICT,
                   {{"field", "phone_number"},
                    {"reason", holder == account_id ? "already_owned" : "not_available"}});
  }

  int used = 0;
  *sql << "SELECT count(*) FROM phone_numbers WHERE account_id = :a "
          "AND status IN ('ACTIVE', 'SUSPENDED')",
      soci::use(account_id), soci::into(used);
  if (used >= limit)
    throw ApiError(ErrorCode::NUMBER_LIMIT_REACHED, {{"limit", limit}, {"used", used}});

  bool toll_free = isTollFreeNumber(number);
  Purchase purchase{newId("pur"),
                    account_id,
                    number.str(),
                    toll_free ? "toll_free" : "local",
                    price(*sql, toll_free ? "toll_free_number_monthly" : "local_number_monthly"),
                    price(*sql, "number_activation_fee")};
  auto posted = db::postLedgerEntry(
      *sql, {account_id, -purchase.total(), "number_purchase", purchase.id,
             "Phone number " + purchase.phone_number + ": first month and activation"});
  if (posted.outcome == db::LedgerOutcome::InsufficientBalance) {
    throw ApiError(ErrorCode::INSUFFICIENT_BALANCE, {{"required_cents", purchase.total()}});
  }
  std::string created_at = formatIso(now);
  *sql << "INSERT INTO number_purchases (id, account_id, phone_number, number_type, "
          "monthly_cost_cents, activation_fee_cents, status, created_at) "
          "VALUES (:id, :account, :number, :type, :monthly, :fee, 'PENDING', :now::timestamptz)",
      soci::use(purchase.id, "id"), soci::use(purchase.account_id, "account"),
      soci::use(purchase.phone_number, "number"), soci::use(purchase.number_type, "type"),
      soci::use(purchase.monthly_cost_cents, "monthly"),
      soci::use(purchase.activation_fee_cents, "fee"), soci::use(created_at, "now");
  tx.commit();
  return purchase;
}

// Loads a purchase still PENDING and locks it, so only one settler acts on it.
std::optional<Purchase> lockPending(soci::session& sql, const std::string& purchase_id) {
  Purchase p;
  sql << "SELECT id, account_id, phone_number, number_type, monthly_cost_cents, "
         "activation_fee_cents FROM number_purchases WHERE id = :id AND status = 'PENDING' "
         "FOR UPDATE",
      soci::use(purchase_id), soci::into(p.id), soci::into(p.account_id),
      soci::into(p.phone_number), soci::into(p.number_type), soci::into(p.monthly_cost_cents),
      soci::into(p.activation_fee_cents);
  if (!sql.got_data()) return std::nullopt;
  return p;
}

PurchaseOutcome completed(const std::string& purchase_id, const std::string& number_id) {
  PurchaseOutcome outcome;
  outcome.kind = PurchaseOutcome::Kind::Completed;
  outcome.purchase_id = purchase_id;
  outcome.phone_number_id = number_id;
  return outcome;
}

PurchaseOutcome failed(const std::string& purchase_id, const std::string& carrier_code,
                       const std::string& detail) {
  PurchaseOutcome outcome;
  outcome.kind = PurchaseOutcome::Kind::Failed;
  outcome.purchase_id = purchase_id;
  outcome.carrier_code = carrier_code;
  outcome.detail = detail;
  return outcome;
}

// What another settler already decided for a purchase that is no longer PENDING.
PurchaseOutcome recordedOutcome(soci::session& sql, const std::string& purchase_id) {
  std::string status, number_id, reason;
  soci::indicator number_ind = soci::i_null, reason_ind = soci::i_null;
  sql << "SELECT pu.status, pn.id, pu.failure_reason FROM number_purchases pu "
         "LEFT JOIN phone_numbers pn ON pn.purchase_id = pu.id WHERE pu.id = :id",
      soci::use(purchase_id), soci::into(status), soci::into(number_id, number_ind),
      soci::into(reason, reason_ind);
  if (status == "COMPLETED") return completed(purchase_id, number_id);
  return failed(purchase_id, "", reason_ind == soci::i_ok ? reason : "");
}

void refund(soci::session& sql, const Purchase& p, const std::string& reason, TimePoint now) {
  db::postLedgerEntry(sql, {p.account_id, p.total(), "number_purchase_refund", p.id,
                            "Refund: phone number " + p.phone_number + " not provisioned"});
  std::string settled_at = formatIso(now);
  sql << "UPDATE number_purchases SET status = 'FAILED', failure_reason = :reason, "
         "settled_at = :now::timestamptz WHERE id = :id",
      soci::use(reason, "reason"), soci::use(settled_at, "now"), soci::use(p.id, "id");
}

// Each settle step returns nothing when another settler already moved the purchase on.
using Settled = std::optional<PurchaseOutcome>;

Settled fail(db::Database& db, const std::string& purchase_id, const std::string& reason,
             const std::string& carrier_code, TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  auto p = lockPending(*sql, purchase_id);
  if (!p) return std::nullopt;
  refund(*sql, *p, reason, now);
  tx.commit();
  return failed(purchase_id, carrier_code, reason);
}

Settled complete(db::Database& db, const std::string& purchase_id, TimePoint now,
                 const std::string& carrier_number_id) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  auto p = lockPending(*sql, purchase_id);
  if (!p) return std::nullopt;
  int held_elsewhere = 0;
  *sql << "SELECT count(*) FROM phone_numbers WHERE phone_number = :n AND status <> 'RELEASED'",
      soci::use(p->phone_number), soci::into(held_elsewhere);
  if (held_elsewhere) {
    // Our records say another account holds it; never let two accounts share a number.
    spdlog::error("carrier sold {} which another account holds; refunding purchase {}",
                  p->phone_number, p->id);
    refund(*sql, *p, "already held", now);
    tx.commit();
    return failed(purchase_id, "", "already held");
  }
  std::string id = newId("pn");
  std::string area_code = areaCodeOf(p->phone_number);
  auto region = areaCodes().regionOf(area_code);
  soci::indicator region_ind = region ? soci::i_ok : soci::i_null;
  std::string region_text = region.value_or("");
  std::string provisioned_at = formatIso(now);
  std::string next_due = formatIso(rentPeriodStart(now, 2));
  std::string capabilities = kCapabilities;
  // Unknown when the carrier could not say: the release asks it then.
  soci::indicator carrier_id_ind = carrier_number_id.empty() ? soci::i_null : soci::i_ok;
  *sql << "INSERT INTO phone_numbers (id, account_id, purchase_id, phone_number, area_code, "
          "region, capabilities, number_type, status, monthly_cost_cents, provisioned_at, "
          "next_rent_due_at, carrier_number_id) VALUES (:id, :a, :pu, :n, :ac, :r, :c::jsonb, "
          ":t, 'ACTIVE', :m, :at::timestamptz, :due::timestamptz, :cid)",
      soci::use(id), soci::use(p->account_id), soci::use(p->id), soci::use(p->phone_number),
      soci::use(area_code), soci::use(region_text, region_ind), soci::use(capabilities),
      soci::use(p->number_type), soci::use(p->monthly_cost_cents), soci::use(provisioned_at),
      soci::use(next_due), soci::use(carrier_number_id, carrier_id_ind);
  std::string settled_at = formatIso(now);
  *sql << "UPDATE number_purchases SET status = 'COMPLETED', settled_at = :now::timestamptz "
          "WHERE id = :id",
      soci::use(settled_at, "now"), soci::use(p->id, "id");
  tx.commit();
  return completed(purchase_id, id);
}

// How an order whose answer is not final stands: the carrier finds it by our purchase id (the
// order's customer reference). Without such an order (a purchase from before references, or a
// request that never arrived), whether the carrier holds the number decides.
NumberOperation askAfterOrder(CarrierClient& carrier, const std::string& purchase_id,
                              const std::string& number) {
  using Kind = NumberOperation::Kind;
  NumberOperation status = carrier.orderStatus(purchase_id);
  if (status.kind != Kind::NotHeld) return status;
  switch (carrier.numberHolding(number)) {
    case NumberHolding::Held:
      return {Kind::Done, "", ""};
    case NumberHolding::NotHeld:
      return {Kind::Refused, "", "the carrier has no order and does not hold the number"};
    case NumberHolding::Unknown:
      break;
  }
  return {Kind::Failed, "", "carrier unreachable"};
}

// The carrier's answer decides: a completed order makes the number the account's, a failed or
// refused one is refunded, and a pending one (or a lost answer) stays PENDING until the order
// settles (settleStalePurchases asks again): neither refunding a number the carrier will
// deliver nor keeping a charge for one it refused.
Settled settle(db::Database& db, CarrierClient& carrier, const std::string& purchase_id,
               const std::string& number, NumberOperation order, TimePoint now) {
  using Kind = NumberOperation::Kind;
  if (order.kind == Kind::Failed) order = askAfterOrder(carrier, purchase_id, number);
  if (order.kind == Kind::Done)
    return complete(db, purchase_id, now, carrier.carrierNumberId(number));
  if (order.kind == Kind::Refused || order.kind == Kind::NotHeld) {
    return fail(db, purchase_id, "carrier refused: " + order.error_detail, order.error_code, now);
  }
  spdlog::warn("purchase {} of {} left pending: {}", purchase_id, number,
               order.kind == Kind::Pending ? "the carrier's order is pending"
                                           : "carrier unreachable (" + order.error_detail + ")");
  PurchaseOutcome pending;
  pending.purchase_id = purchase_id;
  pending.detail =
      order.kind == Kind::Pending ? "order pending at the carrier" : order.error_detail;
  pending.pending_reason = order.kind == Kind::Pending ? "order_pending" : "carrier_unreachable";
  return pending;
}

}  // namespace

PurchaseOutcome purchaseNumber(db::Database& db, CarrierClient& carrier,
                               const std::string& account_id, const E164& number, TimePoint now) {
  Purchase purchase = charge(db, account_id, number, now);
  NumberOperation order = carrier.orderNumber(purchase.phone_number, purchase.id);
  Settled settled = settle(db, carrier, purchase.id, purchase.phone_number, order, now);
  if (!settled) {  // the billing pass settled it meanwhile (a very slow carrier)
    db::Session sql(db);
    settled = recordedOutcome(*sql, purchase.id);
  }
  settled->charged_cents = purchase.total();
  return *settled;
}

int settleStalePurchases(db::Database& db, CarrierClient& carrier, std::chrono::seconds stale_after,
                         TimePoint now, const std::optional<std::string>& account_id) {
  std::vector<std::pair<std::string, std::string>> stale;  // purchase id, number
  {
    db::Session sql(db);
    int seconds = static_cast<int>(stale_after.count());
    std::string account = account_id.value_or(""), now_text = formatIso(now);
    soci::rowset<soci::row> rows =
        (sql->prepare << "SELECT id, phone_number FROM number_purchases WHERE status = 'PENDING' "
                         "AND created_at <= :now::timestamptz - make_interval(secs => :seconds) "
                         "AND (:account = '' OR account_id = :account) "
                         "ORDER BY created_at LIMIT 100",
         soci::use(now_text, "now"), soci::use(seconds, "seconds"), soci::use(account, "account"));
    for (const auto& row : rows)
      stale.emplace_back(row.get<std::string>(0), row.get<std::string>(1));
  }
  int settled = 0;
  for (const auto& [purchase_id, number] : stale) {
    NumberOperation unknown;  // ask the carrier rather than order again
    unknown.error_detail = "purchase interrupted";
    auto outcome = settle(db, carrier, purchase_id, number, unknown, now);
    if (outcome && outcome->kind != PurchaseOutcome::Kind::Pending) {
      spdlog::info("settled interrupted purchase {} of {}: {}", purchase_id, number,
                   outcome->kind == PurchaseOutcome::Kind::Completed ? "completed" : "refunded");
      ++settled;
    }
  }
  return settled;
}

}  // namespace smsgw::numbers
