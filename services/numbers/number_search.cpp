#include "services/numbers/number_search.h"

#include <soci/soci.h>

#include <algorithm>
#include <future>
#include <set>
#include <thread>

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
       soci::use(list, "list"));
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

// Telnyx marks its number search "heavy": at most this many run side by side for one request.
constexpr size_t kSearchesAtOnce = 4;
// A search the carrier throttled is asked once more, after its wait up to this long.
constexpr std::chrono::seconds kLongestSearchWait{2};

// One carrier search per area code, kSearchesAtOnce at a time; each failed search is asked once
// more (after the carrier's wait when it throttled us), so one 429 does not fail the request.
std::vector<NumberSearchResult> searchEachCode(CarrierClient& carrier,
                                               const std::vector<std::string>& codes, int limit) {
  std::vector<NumberSearchResult> per_code(codes.size());
  for (size_t first = 0; first < codes.size(); first += kSearchesAtOnce) {
    std::vector<std::future<NumberSearchResult>> wave;
    for (size_t i = first; i < std::min(codes.size(), first + kSearchesAtOnce); ++i) {
      wave.push_back(std::async(std::launch::async, [&carrier, code = codes[i], limit] {
        return carrier.searchNumbers(code, limit);
      }));
    }
    for (size_t i = 0; i < wave.size(); ++i) per_code[first + i] = wave[i].get();
  }
  for (size_t i = 0; i < codes.size(); ++i) {
    if (per_code[i].ok) continue;
    if (per_code[i].throttled)
      std::this_thread::sleep_for(std::min(per_code[i].retry_after, kLongestSearchWait));
    per_code[i] = carrier.searchNumbers(codes[i], limit);
  }
  return per_code;
}

}  // namespace

nlohmann::json searchNumbers(db::Database& db, CarrierClient& carrier,
                             const std::vector<std::string>& codes, int limit) {
  // A few more than asked for, so numbers the platform already holds can be left out without
  // coming short.
  int carrier_limit = std::min(limit + 10, 50);
  std::vector<NumberSearchResult> per_code = searchEachCode(carrier, codes, carrier_limit);
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
