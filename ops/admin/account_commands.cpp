// smsgw-admin account credit, limits, status, and rent run: money, limits and rent periods.
#include <fmt/format.h>
#include <soci/soci.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "db/ledger.h"
#include "domain/account_status.h"
#include "domain/ids.h"
#include "ops/admin/staff.h"
#include "services/accounts/account_standing.h"
#include "services/numbers/billing_pass.h"
#include "services/numbers/rent.h"

namespace smsgw::admin {

void creditAccount(Staff& staff, const std::string& account_id, long long cents,
                   const std::string& note) {
  if (cents <= 0) throw std::runtime_error("--cents must be positive");
  if (note.empty()) throw std::runtime_error("--note is required: say why");
  db::Session sql(staff.db);
  soci::transaction tx(*sql);
  std::string credit_id = newId("credit");
  auto posted = db::postLedgerEntry(
      *sql, {account_id, cents, "staff_credit", credit_id, "Staff credit: " + note});
  if (posted.outcome != db::LedgerOutcome::Posted) {
    throw std::runtime_error("no account " + account_id);
  }
  int reactivated = numbers::reactivateSuspended(*sql, account_id, staff.clock.now());
  long long balance = 0;
  *sql << "SELECT balance_cents FROM accounts WHERE id = :id", soci::use(account_id),
      soci::into(balance);
  tx.commit();
  std::cout << nlohmann::json{{"account_id", account_id},
                              {"credit_id", credit_id},
                              {"credited_cents", cents},
                              {"balance_cents", balance},
                              {"numbers_reactivated", reactivated}}
                   .dump()
            << "\n";
}

void setInboundCap(Staff& staff, const std::string& account_id, int cap) {
  if (cap < 0) throw std::runtime_error("--cap must be 0 (unlimited) or more");
  db::Session sql(staff.db);
  std::string updated;
  *sql << "UPDATE accounts SET inbound_sms_daily_cap = :c WHERE id = :id RETURNING id",
      soci::use(cap), soci::use(account_id), soci::into(updated);
  if (!sql->got_data()) throw std::runtime_error("no account " + account_id);
  std::cout << nlohmann::json{{"account_id", account_id}, {"inbound_sms_daily_cap", cap}}.dump()
            << "\n";
}

void setDailySendLimit(Staff& staff, const std::string& account_id, int limit) {
  if (limit < -1) throw std::runtime_error("--limit must be -1 (platform default) or more");
  db::Session sql(staff.db);
  soci::indicator limit_ind = limit < 0 ? soci::i_null : soci::i_ok;
  std::string updated;
  *sql << "UPDATE accounts SET daily_send_limit = :l WHERE id = :id RETURNING id",
      soci::use(limit, limit_ind), soci::use(account_id), soci::into(updated);
  if (!sql->got_data()) throw std::runtime_error("no account " + account_id);
  std::cout << nlohmann::json{{"account_id", account_id},
                              {"daily_send_limit",
                               limit < 0 ? nlohmann::json(nullptr) : nlohmann::json(limit)}}
                   .dump()
            << "\n";
}

void setBroadcastLimits(Staff& staff, const std::string& account_id, std::optional<int> max_members,
                        std::optional<int> per_day) {
  if (!max_members && !per_day) throw std::runtime_error("give --max-members, --per-day or both");
  if (max_members && (*max_members < -1 || *max_members == 0))
    throw std::runtime_error("--max-members must be -1 (platform default) or more than 0");
  if (per_day && *per_day < -1)
    throw std::runtime_error("--per-day must be -1 (platform default) or more");
  db::Session sql(staff.db);
  soci::transaction tx(*sql);
  std::string updated;
  *sql << "SELECT id FROM accounts WHERE id = :id FOR UPDATE", soci::use(account_id),
      soci::into(updated);
  if (!sql->got_data()) throw std::runtime_error("no account " + account_id);
  auto set = [&](const char* column, std::optional<int> value) {
    if (!value) return;
    int number = *value;
    soci::indicator ind = number < 0 ? soci::i_null : soci::i_ok;
    *sql << std::string("UPDATE accounts SET ") + column + " = :v WHERE id = :id",
        soci::use(number, ind), soci::use(account_id);
  };
  set("broadcast_max_members", max_members);
  set("broadcasts_per_day", per_day);
  int members = 0, per_day_now = 0;
  soci::indicator members_ind, per_day_ind;
  *sql << "SELECT broadcast_max_members, broadcasts_per_day FROM accounts WHERE id = :id",
      soci::use(account_id), soci::into(members, members_ind), soci::into(per_day_now, per_day_ind);
  tx.commit();
  auto orDefault = [](int value, soci::indicator ind) {
    return ind == soci::i_ok ? nlohmann::json(value) : nlohmann::json(nullptr);
  };
  std::cout << nlohmann::json{{"account_id", account_id},
                              {"broadcast_max_members", orDefault(members, members_ind)},
                              {"broadcasts_per_day", orDefault(per_day_now, per_day_ind)}}
                   .dump()
            << "\n";
}

void setRequestRate(Staff& staff, const std::string& account_id, int per_second) {
  if (per_second < -1 || per_second == 0)
    throw std::runtime_error("--per-second must be -1 (platform default) or more than 0");
  db::Session sql(staff.db);
  soci::indicator rate_ind = per_second < 0 ? soci::i_null : soci::i_ok;
  std::string updated;
  *sql << "UPDATE accounts SET requests_per_second = :r WHERE id = :id RETURNING id",
      soci::use(per_second, rate_ind), soci::use(account_id), soci::into(updated);
  if (!sql->got_data()) throw std::runtime_error("no account " + account_id);
  std::cout << nlohmann::json{{"account_id", account_id},
                              {"requests_per_second", per_second < 0 ? nlohmann::json(nullptr)
                                                                     : nlohmann::json(per_second)}}
                   .dump()
            << "\n";
}

void resumeSending(Staff& staff, const std::string& account_id) {
  db::Session sql(staff.db);
  std::string updated;
  *sql << "UPDATE accounts SET sms_paused_until = NULL, sms_pause_reason = NULL WHERE id = :id "
          "RETURNING id",
      soci::use(account_id), soci::into(updated);
  if (!sql->got_data()) throw std::runtime_error("no account " + account_id);
  std::cout << nlohmann::json{{"account_id", account_id}, {"sms_paused_until", nullptr}}.dump()
            << "\n";
}

namespace {

// Why a move was refused for the account's status.
std::string onlyFrom(StandingCommand command) {
  switch (command) {
    case StandingCommand::Suspend:
      return "only an ACTIVE account is suspended";
    case StandingCommand::Reinstate:
      return "only a SUSPENDED account is reinstated";
    case StandingCommand::Close:
      return "a CLOSED account stays closed";
  }
  return "";
}

}  // namespace

void changeAccountStanding(Staff& staff, const std::string& account_id, StandingCommand command,
                           const std::string& reason) {
  if (command != StandingCommand::Reinstate && reason.empty()) {
    throw std::runtime_error("--reason is required: say why");
  }
  accounts::StandingChange change = command == StandingCommand::Suspend
                                        ? accounts::suspendAccount(staff.db, account_id, reason)
                                    : command == StandingCommand::Reinstate
                                        ? accounts::reinstateAccount(staff.db, account_id)
                                        : accounts::closeAccount(staff.db, account_id, reason);
  std::string status(toString(change.status));
  switch (change.outcome) {
    case accounts::StandingOutcome::Changed:
      break;
    case accounts::StandingOutcome::NoSuchAccount:
      throw std::runtime_error("no account " + account_id);
    case accounts::StandingOutcome::WrongStatus:
      throw std::runtime_error("account " + account_id + " is " + status + ": " +
                               onlyFrom(command));
    case accounts::StandingOutcome::HoldsNumbers:
      throw std::runtime_error(fmt::format(
          "account {} holds {} phone number(s): release each first (smsgw-admin number release)",
          account_id, change.numbers_held));
  }
  std::cout << nlohmann::json{{"account_id", account_id}, {"status", status}}.dump() << "\n";
}

namespace {

// Numbers the pass published a record for that is not handled yet.
int outstanding(db::Database& db, TimePoint as_of, const std::string& account_id) {
  db::Session sql(db);
  std::string as_of_text = formatIso(as_of);
  int count = 0;
  *sql << "SELECT count(*) FROM phone_numbers WHERE billing_enqueued_at IS NOT NULL "
          "AND (:a = '' OR account_id = :a2) "
          "AND ((status = 'ACTIVE' AND next_rent_due_at <= :t::timestamptz) "
          "  OR (status = 'SUSPENDED' AND grace_ends_at <= :t2::timestamptz))",
      soci::use(account_id), soci::use(account_id), soci::use(as_of_text), soci::use(as_of_text),
      soci::into(count);
  return count;
}

}  // namespace

void runRent(Staff& staff, TimePoint as_of, const std::optional<std::string>& account_id,
             int wait_seconds, std::chrono::seconds settle_after) {
  numbers::BillingPassOptions options;
  options.stale_after = settle_after;
  options.as_of = as_of;
  options.now = staff.clock.now();
  options.account_id = account_id;
  // A staff run publishes again at once what an earlier run published but nothing handled.
  options.republish_after = std::chrono::seconds(0);
  auto report = numbers::runBillingPass(staff.db, staff.carrier, options);
  nlohmann::json out = {{"as_of", formatIso(as_of)},
                        {"rent_due", report.rent_due},
                        {"grace_expired", report.grace_expired},
                        {"purchases_settled", report.purchases_settled},
                        {"releases_finished", report.releases_finished}};
  if (wait_seconds > 0) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(wait_seconds);
    int left = outstanding(staff.db, as_of, account_id.value_or(""));
    while (left > 0 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      left = outstanding(staff.db, as_of, account_id.value_or(""));
    }
    out["outstanding"] = left;
    if (left > 0) {
      std::cout << out.dump() << "\n";
      throw std::runtime_error(fmt::format(
          "{} records not handled after {} s: is smsgw-rent-billing running?", left, wait_seconds));
    }
  }
  std::cout << out.dump() << "\n";
}

}  // namespace smsgw::admin
