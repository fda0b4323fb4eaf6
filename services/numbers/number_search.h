#pragma once
// The carrier's available numbers in the area codes asked for, priced at the local or
// toll-free tier, leaving out numbers the platform already holds.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "db/database.h"
#include "domain/carrier_client.h"

namespace smsgw::numbers {

// One carrier search per area code, side by side (any failure is NUMBER_SEARCH_FAILED); at
// most `limit` results, round-robin over the codes so every code asked for is represented.
nlohmann::json searchNumbers(db::Database& db, CarrierClient& carrier,
                             const std::vector<std::string>& codes, int limit);

}  // namespace smsgw::numbers
