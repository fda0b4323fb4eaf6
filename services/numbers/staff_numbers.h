#pragma once
// Staff's side of numbers (smsgw-admin toll-free and number): a number named by id or E.164,
// the status of a toll-free number's verification application, and the numbers whose release
// the carrier has not confirmed. smsgw-admin parses, calls these and prints.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "db/database.h"
#include "domain/clock.h"

namespace smsgw::numbers {

// The id of a number given by id (pn_…) or by E.164 (then only while held: a released number's
// E.164 may be someone else's now). None when there is no such number.
std::optional<std::string> findNumberForStaff(db::Database& db, const std::string& number);

// The number as the API shows it (PhoneNumber).
nlohmann::json phoneNumberForStaff(db::Database& db, const std::string& number_id);

enum class TollFreeOutcome { Set, NoSuchNumber, NotTollFree, UnknownStatus };

// Sets the status of the number's current verification application as of `now`, opening one
// when there is none or when `new_application` (the current one is then cancelled).
TollFreeOutcome setTollFreeVerification(db::Database& db, const std::string& number_id,
                                        const std::string& status, bool new_application,
                                        TimePoint now);

// Every number left RELEASING, oldest request first: {id, account_id, phone_number,
// carrier_number_id, release_reason, release_requested_at}.
nlohmann::json releasingNumbers(db::Database& db);

}  // namespace smsgw::numbers
