#pragma once
// Which API key a request presents. A script sends it in `Authorization: Bearer` or `X-API-Key`;
// the dashboard's page cannot (its session keys live in HttpOnly cookies), so on /v1 routes a
// request with neither header is authenticated by the session cookie of the mode it names
// (domain/dashboard_session.h). A cookie travels with any request the browser makes, so one that
// may change something must also carry the session's CSRF token, which only our own page can
// read.

#include <optional>
#include <string>

#include "api/http/api_types.h"

namespace smsgw::api {

struct PresentedKey {
  std::string secret;
  bool from_session_cookie = false;
};

// Nothing when the request presents no key. Throws ApiError FST_ERR_BAD_REQUEST (an
// X-Dashboard-Mode other than LIVE or TEST) or FORBIDDEN (reason csrf_token: a cookie-authenticated
// request other than GET or HEAD without the session's token). `secure_cookies`: the API is
// served over HTTPS, and only the __Host- cookies count (domain/dashboard_session.h).
std::optional<PresentedKey> presentedKey(const ApiRequest& req, bool secure_cookies = false);

// The hashes of the session keys a request's cookies hold (sign-out ends them).
std::vector<std::string> sessionKeyHashesIn(const ApiRequest& req, bool secure_cookies = false);

// The token of the trusted-browser cookie a request holds, if any.
std::optional<std::string> browserTokenIn(const ApiRequest& req, bool secure_cookies = false);

}  // namespace smsgw::api
