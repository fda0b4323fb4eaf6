#include "api/http/presented_key.h"

#include "domain/dashboard_session.h"
#include "domain/errors.h"

namespace smsgw::api {
namespace {

bool changesNothing(const std::string& method) {
  return method == "GET" || method == "HEAD";
}

std::optional<std::string> cookie(const ApiRequest& req, std::string_view name) {
  auto header = req.header("cookie");
  if (!header) return std::nullopt;
  return dashboard::cookieValue(*header, name);
}

}  // namespace

std::optional<PresentedKey> presentedKey(const ApiRequest& req, bool secure_cookies) {
  if (auto key = presentedApiKey(req.header("authorization"), req.header("x-api-key")))
    return PresentedKey{*key, false};
  // Only the REST API takes the cookies: the OAuth and MCP endpoints never act for a browser.
  if (!req.path.starts_with("/v1/")) return std::nullopt;
  dashboard::CookieNames names = dashboard::cookieNames(secure_cookies);
  auto live = cookie(req, names.live);
  if (!live || live->empty()) return std::nullopt;

  std::string mode = req.header(std::string(dashboard::kModeHeader)).value_or("LIVE");
  if (mode != "LIVE" && mode != "TEST")
    throw ApiError(ErrorCode::FST_ERR_BAD_REQUEST,
                   {{"header", dashboard::kModeHeader}, {"reason", "must be LIVE or TEST"}});
  if (!changesNothing(req.method)) {
    auto token = req.header(std::string(dashboard::kCsrfHeader));
    if (!token || !dashboard::csrfTokenMatches(*live, *token))
      throw ApiError(ErrorCode::FORBIDDEN, {{"reason", "csrf_token"}});
  }
  if (mode == "LIVE") return PresentedKey{*live, true};
  auto test = cookie(req, names.test);
  if (!test || test->empty()) return std::nullopt;
  return PresentedKey{*test, true};
}

std::vector<std::string> sessionKeyHashesIn(const ApiRequest& req, bool secure_cookies) {
  std::vector<std::string> hashes;
  dashboard::CookieNames names = dashboard::cookieNames(secure_cookies);
  for (const auto& name : {names.live, names.test}) {
    auto secret = cookie(req, name);
    if (secret && !secret->empty()) hashes.push_back(hashApiKey(*secret));
  }
  return hashes;
}

std::optional<std::string> browserTokenIn(const ApiRequest& req, bool secure_cookies) {
  auto token = cookie(req, dashboard::cookieNames(secure_cookies).browser);
  if (!token || token->empty()) return std::nullopt;
  return token;
}

}  // namespace smsgw::api
