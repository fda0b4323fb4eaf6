#pragma once
// The price table as stored: nothing else hard-codes a price.

#include <nlohmann/json.hpp>

#include "db/database.h"

namespace smsgw::accounts {

// {currency: CAD, prices: [{code, cents, unit, description}]} ordered by code.
nlohmann::json priceTable(db::Database& db);

}  // namespace smsgw::accounts
