// Finding numbers to buy: the area codes we sell, and the carrier's available numbers in them
// priced at the local or toll-free tier. Searches are limited to 30 a minute per account.
#include "services/numbers/number_search.h"

#include <memory>
#include <set>
#include <sstream>

#include "api/http/request_limiters.h"
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

ApiResponse search(App& app, RequestLimiter& limiter, ApiRequest& req) {
  RateDecision decision = limiter.hit(req.who().account_id);
  if (!decision.allowed) {
    throw ApiError(ErrorCode::RATE_LIMITED,
                   {{"reason", "number_search_limit"}, {"limit_per_minute", kSearchesPerMinute}},
                   decision.retry_after_seconds);
  }
  std::vector<std::string> codes = requireAreaCodes(req);
  int limit = queryInteger(req, "limit", 10, 1, 50);

  return ApiResponse::json(200, numbers::searchNumbers(app.db, app.carrier, codes, limit));
}

}  // namespace

void addNumberSearchRoutes(Router& router, App& app) {
  auto limiter = std::shared_ptr<RequestLimiter>(
      requestLimiter(app, "number_search", kSearchesPerMinute, std::chrono::minutes(1)));
  router.add("GET", "/v1/phone-numbers/area-codes", needs("phone_numbers:r"),
             [](ApiRequest&) { return listAreaCodes(); });
  router.add("GET", "/v1/phone-numbers/search", onSlowLane(needs("phone_numbers:r")),
             [&app, limiter](ApiRequest& r) { return search(app, *limiter, r); });
}

}  // namespace smsgw::api
