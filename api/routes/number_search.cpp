// Finding numbers to buy: the area codes we sell, and the carrier's available numbers in them
// priced at the local or toll-free tier. Searches are limited to 30 a minute per account.
#include <soci/soci.h>

#include <algorithm>
#include <future>
#include <memory>
#include <set>
#include <sstream>

#include "api/http/rate_limiter.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/area_codes.h"
#include "domain/errors.h"

namespace smsgw::api {
namespace {

constexpr int kMaxAreaCodes = 25;
constexpr int kSearchesPerMinute = 30;

ApiResponse listAreaCodes() {
  nlohmann::json data = nlohmann::json::array();
  for (const auto& group : areaCodes().byProvince()) {
    data.push_back({{"province", group.province.name},
                    {"province_code", group.province.code},
                    {"country", "CA"},
                    {"type", "geographic"},
                    {"area_codes", group.area_codes}});
  }
  data.push_back({{"province", "Toll-free"},
                  {"province_code", nullptr},
                  {"country", "CA"},
                  {"type", "toll_free"},
                  {"area_codes", areaCodes().tollFreePrefixes()}});
  return ApiResponse::json(200, {{"data", data}});
}

// The distinct area codes asked for, in the order given; refusals name what is wrong.
std::vector<std::string> requireAreaCodes(const ApiRequest& req) {
  auto it = req.query.find("area_codes");
  if (it == req.query.end() || it->second.find_first_not_of(", ") == std::string::npos) {
    throw validationError("area_codes", "is required: comma-separated area codes such as 416,514");
  }
  std::vector<std::string> codes;
  std::set<std::string> seen;
  std::string token;
  std::stringstream stream(it->second);
  while (std::getline(stream, token, ',')) {
    token.erase(0, token.find_first_not_of(' '));
    token.erase(token.find_last_not_of(' ') + 1);
    if (!token.empty() && seen.insert(token).second) codes.push_back(token);
  }
  if (codes.size() > kMaxAreaCodes) {
    throw ApiError(ErrorCode::TOO_MANY_AREA_CODES,
                   {{"max", kMaxAreaCodes}, {"given", codes.size()}});
  }
  nlohmann::json unsold = nlohmann::json::array();
  for (const auto& code : codes) {
    if (!areaCodes().isSold(code)) unsold.push_back(code);
  }
  if (!unsold.empty()) {
    throw ApiError(ErrorCode::VALIDATION_ERROR,
                   {{"field", "area_codes"},
                    {"area_codes", unsold},
                    {"message",
                     "not an area code we sell: see GET /v1/phone-numbers/area-codes (800 is "
                     "not offered yet)"}});
  }
  return codes;
}

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

ApiResponse search(App& app, RateLimiter& limiter, ApiRequest& req) {
  RateDecision decision = limiter.hit(req.who().account_id);
  if (!decision.allowed) {
    throw ApiError(ErrorCode::RATE_LIMITED,
                   {{"reason", "number_search_limit"}, {"limit_per_minute", kSearchesPerMinute}},
                   decision.retry_after_seconds);
  }
  std::vector<std::string> codes = requireAreaCodes(req);
  int limit = queryInteger(req, "limit", 10, 1, 50);

  // One carrier search per area code, side by side; any failure fails the search. A few more
  // than asked for, so numbers the platform already holds can be left out without coming short.
  int carrier_limit = std::min(limit + 10, 50);
  std::vector<std::future<NumberSearchResult>> pending;
  for (const auto& code : codes) {
    pending.push_back(std::async(std::launch::async, [&app, code, carrier_limit] {
      return app.carrier.searchNumbers(code, carrier_limit);
    }));
  }
  std::vector<NumberSearchResult> per_code;
  for (auto& future : pending) per_code.push_back(future.get());
  std::vector<AvailableNumber> all;
  for (const auto& result : per_code) {
    if (!result.ok) throw ApiError(ErrorCode::NUMBER_SEARCH_FAILED);
    all.insert(all.end(), result.numbers.begin(), result.numbers.end());
  }

  db::Session sql(app.db);
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
  return ApiResponse::json(200, out);
}

}  // namespace

void addNumberSearchRoutes(Router& router, App& app) {
  auto limiter =
      std::make_shared<RateLimiter>(kSearchesPerMinute, std::chrono::minutes(1), app.clock);
  router.add("GET", "/v1/phone-numbers/area-codes", needs("phone_numbers:r"),
             [](ApiRequest&) { return listAreaCodes(); });
  router.add("GET", "/v1/phone-numbers/search", onSlowLane(needs("phone_numbers:r")),
             [&app, limiter](ApiRequest& r) { return search(app, *limiter, r); });
}

}  // namespace smsgw::api
