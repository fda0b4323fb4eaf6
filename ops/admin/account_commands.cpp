// smsgw-admin account credit, limits, status, and rent run: money, limits and rent periods.
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "domain/account_status.h"
#include "ops/admin/staff.h"
#include "services/accounts/account_standing.h"
#include "services/accounts/staff_settings.h"
#include "services/messaging/protection.h"
#include "services/numbers/billing_pass.h"

namespace smsgw::admin {

void creditAccount(Staff& staff, const std::string& account_id, long long cents,
                   const std::string& note) {
  if (cents <= 0) throw std::runtime_error("--cents must be positive");
  if (note.empty()) throw std::runtime_error("--note is required: say why");
  auto credit = accounts::creditByStaff(staff.db, account_id, cents, note, staff.clock.now());
  if (!credit) throw std::runtime_error("no account " + account_id);
  std::cout << nlohmann::json{{"account_id", account_id},
                              {"credit_id", credit->credit_id},
                              {"credited_cents", cents},
                              {"balance_cents", credit->balance_cents},
                              {"numbers_reactivated", credit->numbers_reactivated}}
                   .dump()
            << "\n";
}

namespace {

// -1 on the command line: the platform's default.
accounts::AccountLimit limitGiven(int value) {
  return value < 0 ? std::nullopt : accounts::AccountLimit(value);
}

nlohmann::json limitShown(const accounts::AccountLimit& limit) {
  return limit ? nlohmann::json(*limit) : nlohmann::json(nullptr);
}

void requireAccount(bool found, const std::string& account_id) {
  if (!found) throw std::runtime_error("no account " + account_id);
}

}  // namespace

void setInboundCap(Staff& staff, const std::string& account_id, int cap) {
  if (cap < 0) throw std::runtime_error("--cap must be 0 (unlimited) or more");
  requireAccount(accounts::setInboundDailyCap(staff.db, account_id, cap), account_id);
  std::cout << nlohmann::json{{"account_id", account_id}, {"inbound_sms_daily_cap", cap}}.dump()
            << "\n";
}

void setDailySendLimit(Staff& staff, const std::string& account_id, int limit) {
  if (limit < -1) throw std::runtime_error("--limit must be -1 (platform default) or more");
  requireAccount(accounts::setDailySendLimit(staff.db, account_id, limitGiven(limit)), account_id);
  std::cout << nlohmann::json{{"account_id", account_id},
                              {"daily_send_limit", limitShown(limitGiven(limit))}}
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
  auto given = [](std::optional<int> value) {
    return value ? std::optional(limitGiven(*value)) : std::nullopt;
  };
  auto limits =
      accounts::setBroadcastLimits(staff.db, account_id, given(max_members), given(per_day));
  requireAccount(limits.has_value(), account_id);
  std::cout << nlohmann::json{{"account_id", account_id},
                              {"broadcast_max_members", limitShown(limits->max_members)},
                              {"broadcasts_per_day", limitShown(limits->per_day)}}
                   .dump()
            << "\n";
}

void setRequestRate(Staff& staff, const std::string& account_id, int per_second) {
  if (per_second < -1 || per_second == 0)
    throw std::runtime_error("--per-second must be -1 (platform default) or more than 0");
  requireAccount(accounts::setRequestRate(staff.db, account_id, limitGiven(per_second)),
                 account_id);
  std::cout << nlohmann::json{{"account_id", account_id},
                              {"requests_per_second", limitShown(limitGiven(per_second))}}
                   .dump()
            << "\n";
}

void resumeSending(Staff& staff, const std::string& account_id) {
  requireAccount(messaging::liftSendingPause(staff.db, account_id), account_id);
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
    int left = numbers::rentRecordsOutstanding(staff.db, as_of, account_id);
    while (left > 0 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      left = numbers::rentRecordsOutstanding(staff.db, as_of, account_id);
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
