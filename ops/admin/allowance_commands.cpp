// smsgw-admin allowance: list and decide allowance requests (services/numbers/allowance_decisions).
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "ops/admin/staff.h"
#include "services/numbers/allowance_decisions.h"

namespace smsgw::admin {

void listAllowanceRequests(Staff& staff, const std::string& status, const std::string& account_id) {
  std::cout << nlohmann::json{{"allowance_requests",
                               numbers::allowanceRequestsForStaff(staff.db, status, account_id)}}
                   .dump()
            << "\n";
}

void decideAllowanceRequest(Staff& staff, const std::string& id, bool approve,
                            std::optional<int> granted_limit, const std::string& note) {
  std::optional<numbers::DecidedAllowance> decided;
  try {
    decided = numbers::decideAllowanceRequest(staff.db, id, {approve, granted_limit, note},
                                              staff.clock.now());
  } catch (const std::invalid_argument&) {
    throw std::runtime_error("--limit must be at least 1");
  }
  if (!decided) throw std::runtime_error("no PENDING allowance request " + id);
  staff.mailer.send(
      {decided->email,
       fmt::format("Your phone-number allowance request was {}", approve ? "approved" : "denied"),
       approve ? fmt::format("You may now hold up to {} phone numbers. {}", decided->granted, note)
               : fmt::format("Your request for {} phone numbers was denied. {}", decided->requested,
                             note)});
  std::cout << nlohmann::json{{"allowance_request", decided->request},
                              {"account_id", decided->account_id}}
                   .dump()
            << "\n";
}

}  // namespace smsgw::admin
