#include "services/numbers/number_search.h"

#include <soci/soci.h>

#include <algorithm>
#include <future>
#include <set>

#include "domain/area_codes.h"
#include "domain/errors.h"

namespace smsgw::numbers {
namespace {

struct Tiers {
  int local_cents = 0;
  int toll_free_cents = 0;
  int activation_cents = 0;
};

Tiers readTiers(soci::session& sql) {
  Tiers tiers;
  soci::rowset<soci::row> rows =
      (sql.prepare << "SELECT code, cents FROM prices WHERE code IN ('local_number_monthly', "
                      "'toll_free_number_monthly', 'number_activation_fee')");
  for (const auto& row : rows) {
    const auto code = row.get<std::string>(0);
    int cents = row.get<int>(1);
    if (code == "local_number_monthly") tiers.local_cents = cents;
    if (code == "toll_free_number_monthly") tiers.toll_free_cents = cents;
    if (code == "number_activation_fee") tiers.activation_cents = cents;
  }
  return tiers;
}

std::set<std::string> heldAmong(soci::session& sql, const std::vector<AvailableNumber>& numbers) {
  nlohmann::json candidates = nlohmann::json::array();
  for (const auto& n : numbers) candidates.push_back(n.phone_number);
  std::set<std::string> held;
  std::string list = candidates.dump();
  soci::rowset<std::string> rows =
      (sql.prepare << "SELECT phone_number FROM phone_numbers WHERE status <> 'RELEASED' AND "
                      "phone_number IN (SELECT jsonb_array_elements_text(:list::jsonb))",
       soci::use(list));
  for (const auto& number : rows) held.insert(number);
  return held;
}

nlohmann::json searchResult(const AvailableNumber& number, const Tiers& tiers) {
  std::string area_code = areaCodeOf(number.phone_number);
  const AreaCode* entry = areaCodes().find(area_code);
  int monthly = entry && entry->toll_free ? tiers.toll_free_cents : tiers.local_cents;
  auto region = areaCodes().regionOf(area_code);
  return {{"phone_number", number.phone_number},
          {"country_code", "CA"},
          {"area_code", area_code.empty() ? nlohmann::json(nullptr) : nlohmann::json(area_code)},
          {"region", region ? nlohmann::json(*region) : nlohmann::json(nullptr)},
          {"capabilities", number.capabilities},
          {"monthly_cost_cents", monthly},
          {"upfront_cost_cents", monthly},
          {"activation_fee_cents", tiers.activation_cents},
          {"currency", "CAD"}};
}

}  // namespace

nlohmann::json searchNumbers(db::Database& db, CarrierClient& carrier,
                             const std::vector<std::string>& codes, int limit) {
  // One carrier search per area code, side by side; any failure fails the search. A few more
  // than asked for, so numbers the platform already holds can be left out without coming short.
  int carrier_limit = std::min(limit + 10, 50);
  std::vector<std::future<NumberSearchResult>> pending;
  pending.reserve(codes.size());
  for (const auto& code : codes) {
    pending.push_back(std::async(std::launch::async, [&carrier, code, carrier_limit] {
      return carrier.searchNumbers(code, carrier_limit);
    }));
  }
  std::vector<NumberSearchResult> per_code;
  per_code.reserve(pending.size());
  for (auto& future : pending) per_code.push_back(future.get());
  std::vector<AvailableNumber> all;
  for (const auto& result : per_code) {
    if (!result.ok) throw ApiError(ErrorCode::NUMBER_SEARCH_FAILED);
    all.insert(all.end(), result.numbers.begin(), result.numbers.end());
  }

  db::Session sql(db);
  Tiers tiers = readTiers(*sql);
  std::set<std::string> held = heldAmong(*sql, all);
  // Round-robin over the area codes, so every code asked for is represented.
  nlohmann::json out = nlohmann::json::array();
  std::set<std::string> listed;
  for (size_t rank = 0; static_cast<int>(out.size()) < limit; ++rank) {
    bool any_left = false;
    for (const auto& result : per_code) {
      if (rank >= result.numbers.size()) continue;
      any_left = true;
      const auto& number = result.numbers[rank];
      if (held.count(number.phone_number) || !listed.insert(number.phone_number).second) continue;
      if (static_cast<int>(out.size()) < limit) out.push_back(searchResult(number, tiers));
    }
    if (!any_left) break;
  }
  return out;
}

}  // namespace smsgw::numbers
