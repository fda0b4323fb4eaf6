#include "services/numbers/rent.h"

#include <fmt/format.h>
#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include <optional>
#include <vector>

#include "db/ledger.h"
#include "db/outbox.h"
#include "domain/rent_period.h"
#include "services/numbers/number_decisions.h"
#include "topics/catalogue.h"
#include "topics/event_writer.h"
#include "topics/records.h"

namespace smsgw::numbers {
namespace {

struct RentedNumber {
  std::string id;
  std::string account_id;
  std::string phone_number;
  std::string status;
  int periods_paid = 0;
  TimePoint provisioned_at;
  TimePoint next_due_at;
  int monthly_cost_cents = 0;
};

TimePoint readIso(const std::string& text) {
  auto parsed = parseIso(text);
  if (!parsed) throw std::runtime_error("unreadable timestamp " + text);
  return *parsed;
}

RentedNumber fromRow(const soci::row& row) {
  return {
      row.get<std::string>(0),          row.get<std::string>(1), row.get<std::string>(2),
      row.get<std::string>(3),          row.get<int>(4),         readIso(row.get<std::string>(5)),
      readIso(row.get<std::string>(6)), row.get<int>(7)};
}

constexpr const char* kRentedColumns =
    "SELECT id, account_id, phone_number, status, rent_periods_paid, iso_ts(provisioned_at), "
    "iso_ts(next_rent_due_at), monthly_cost_cents FROM phone_numbers ";

std::optional<RentedNumber> lockNumber(soci::session& sql, const std::string& number_id) {
  soci::rowset<soci::row> rows =
      (sql.prepare << std::string(kRentedColumns) + "WHERE id = :id FOR UPDATE",
       soci::use(number_id));
  for (const auto& row : rows) return fromRow(row);
  return std::nullopt;
}

// Debits one period; true when it is paid (now or by an earlier run of the same period).
bool payPeriod(soci::session& sql, const RentedNumber& number, int period) {
  if (number.monthly_cost_cents == 0) return true;
  auto posted = db::postLedgerEntry(
      sql, {number.account_id, -static_cast<long long>(number.monthly_cost_cents), "number_rent",
            fmt::format("{}/{}", number.id, period),
            fmt::format("Rent for {}, month {} from {}", number.phone_number, period,
                        formatIso(rentPeriodStart(number.provisioned_at, period)).substr(0, 10))});
  return posted.outcome != db::LedgerOutcome::InsufficientBalance;
}

// Records `period` as paid, due again at `next_due`. The number is ACTIVE afterwards.
void markPaid(soci::session& sql, const RentedNumber& number, int period, TimePoint next_due) {
  std::string next_due_text = formatIso(next_due);
  sql << "UPDATE phone_numbers SET status = 'ACTIVE', rent_periods_paid = :p, "
         "next_rent_due_at = :due::timestamptz, billing_enqueued_at = NULL, "
         "suspended_at = NULL, grace_ends_at = NULL WHERE id = :id",
      soci::use(period), soci::use(next_due_text), soci::use(number.id);
}

void suspend(soci::session& sql, const RentedNumber& number, TimePoint as_of,
             const RentSettings& settings) {
  std::string suspended_at = formatIso(as_of);
  std::string grace_ends_at = formatIso(as_of + settings.grace_period);
  sql << "UPDATE phone_numbers SET status = 'SUSPENDED', suspended_at = :s::timestamptz, "
         "grace_ends_at = :g::timestamptz, billing_enqueued_at = NULL WHERE id = :id",
      soci::use(suspended_at), soci::use(grace_ends_at), soci::use(number.id);
  topics::raiseEvent(sql, {number.account_id,
                           "phone_number.suspended",
                           true,
                           {{"phone_number", number.phone_number},
                            {"phone_number_id", number.id},
                            {"reason", "insufficient_balance"},
                            {"monthly_cost_cents", number.monthly_cost_cents},
                            {"grace_ends_at", grace_ends_at}}});
}

}  // namespace

RentOutcome collectRent(soci::session& sql, const std::string& number_id, int period,
                        TimePoint as_of, TimePoint now, const RentSettings& settings) {
  auto number = lockNumber(sql, number_id);
  if (!number ||
      !rentIsDue({number->status, number->periods_paid, number->next_due_at}, period, as_of)) {
    return RentOutcome::NothingDue;
  }
  bool paid = payPeriod(sql, *number, period);
  TimePoint next_due = rentPeriodStart(number->provisioned_at, period + 1);
  AfterRent after = afterRent(paid, next_due, as_of);
  if (after == AfterRent::Suspend) {
    suspend(sql, *number, as_of, settings);
    spdlog::info("suspended {} ({}): month {} not covered", number->phone_number, number->id,
                 period);
    return RentOutcome::Suspended;
  }
  markPaid(sql, *number, period, next_due);
  if (after == AfterRent::PaidAndNextDue) {
    topics::BillingRent next{number->id, "collect", period + 1, formatIso(as_of)};
    db::enqueueOutbox(sql, std::string(topics::kBillingRent.name), number->id,
                      next.toJson().dump());
    std::string enqueued_at = formatIso(now);
    sql << "UPDATE phone_numbers SET billing_enqueued_at = :now::timestamptz WHERE id = :id",
        soci::use(enqueued_at, "now"), soci::use(number->id, "id");
  }
  return RentOutcome::Collected;
}

int reactivateSuspended(soci::session& sql, const std::string& account_id, TimePoint now) {
  std::vector<RentedNumber> suspended;
  std::string now_text = formatIso(now);
  soci::rowset<soci::row> rows =
      (sql.prepare << std::string(kRentedColumns) +
                          "WHERE account_id = :a AND status = 'SUSPENDED' "
                          "AND grace_ends_at > :now::timestamptz "
                          "ORDER BY suspended_at, provisioned_at, id FOR UPDATE",
       soci::use(account_id), soci::use(now_text));
  for (const auto& row : rows) suspended.push_back(fromRow(row));
  int reactivated = 0;
  for (const auto& number : suspended) {
    int owed_period = number.periods_paid + 1;
    if (!payPeriod(sql, number, owed_period)) break;  // oldest first; the rest wait for funds
    markPaid(sql, number, owed_period, rentPeriodStart(number.provisioned_at, owed_period + 1));
    spdlog::info("reactivated {} ({}): month {} collected", number.phone_number, number.id,
                 owed_period);
    ++reactivated;
  }
  return reactivated;
}

RentOutcome collectRent(db::Database& db, const std::string& number_id, int period, TimePoint as_of,
                        TimePoint now, const RentSettings& settings) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  RentOutcome outcome = collectRent(*sql, number_id, period, as_of, now, settings);
  tx.commit();
  return outcome;
}

}  // namespace smsgw::numbers
