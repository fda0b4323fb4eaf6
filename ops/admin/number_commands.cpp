// smsgw-admin toll-free and number: toll-free verification status, staff releases and the
// releases the carrier has not confirmed (services/numbers/staff_numbers, release).
#include <iostream>
#include <nlohmann/json.hpp>

#include "ops/admin/staff.h"
#include "services/numbers/release.h"
#include "services/numbers/staff_numbers.h"

namespace smsgw::admin {
namespace {

// A number given by id (pn_…) or E.164; released numbers are not found by E.164.
std::string heldNumber(Staff& staff, const std::string& number) {
  auto id = numbers::findNumberForStaff(staff.db, number);
  if (!id) throw std::runtime_error("no held phone number " + number);
  return *id;
}

void printNumber(Staff& staff, const std::string& id) {
  std::cout << nlohmann::json{{"phone_number", numbers::phoneNumberForStaff(staff.db, id)}}.dump()
            << "\n";
}

}  // namespace

void setTollFreeVerification(Staff& staff, const std::string& number, const std::string& status,
                             bool new_application) {
  std::string id = heldNumber(staff, number);
  switch (
      numbers::setTollFreeVerification(staff.db, id, status, new_application, staff.clock.now())) {
    case numbers::TollFreeOutcome::Set:
      break;
    case numbers::TollFreeOutcome::UnknownStatus:
      throw std::runtime_error("unknown status " + status);
    case numbers::TollFreeOutcome::NoSuchNumber:
      throw std::runtime_error("no held phone number " + number);
    case numbers::TollFreeOutcome::NotTollFree:
      throw std::runtime_error(number + " is not toll-free");
  }
  printNumber(staff, id);
}

void releaseNumberAsStaff(Staff& staff, const std::string& number) {
  std::string id = heldNumber(staff, number);
  auto result = numbers::releaseNumber(staff.db, staff.carrier, id, numbers::kAdminReleased,
                                       staff.clock.now());
  switch (result.kind) {
    case numbers::ReleaseResult::Kind::Released:
      break;
    case numbers::ReleaseResult::Kind::NotReleasable:
      throw std::runtime_error(number + " is already released");
    case numbers::ReleaseResult::Kind::CarrierRefused:
      throw std::runtime_error("the carrier refused the release (" + result.carrier_code + " " +
                               result.detail + "); the number is unchanged");
    case numbers::ReleaseResult::Kind::Pending:
      throw std::runtime_error(
          "the carrier could not be reached; the number stays RELEASING and "
          "the billing pass retries");
  }
  printNumber(staff, id);
}

void listReleasesInDoubt(Staff& staff) {
  for (const auto& number : numbers::releasingNumbers(staff.db)) {
    std::cout << number.dump() << "\n";
  }
}

}  // namespace smsgw::admin
