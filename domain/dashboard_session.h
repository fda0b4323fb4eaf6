#pragma once
// The dashboard's session as a browser holds it (docs/dashboard.md): two session keys, LIVE and
// TEST, in HttpOnly SameSite=Strict cookies the page's script cannot read, and a CSRF token in a
// cookie it can. A request the cookies authenticate names its mode in a header, and one that may
// change anything sends the token back in another: a page on another origin can neither read
// the token nor send that header without a CORS preflight this API never grants. Pure.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace smsgw::dashboard {

inline constexpr std::string_view kLiveCookie = "smsgw_live";
inline constexpr std::string_view kTestCookie = "smsgw_test";
inline constexpr std::string_view kCsrfCookie = "smsgw_csrf";
inline constexpr std::string_view kCsrfHeader = "x-csrf-token";  // lower-case, as requests keep it
inline constexpr std::string_view kModeHeader = "x-dashboard-mode";  // LIVE (default) or TEST

// The value of cookie `name` in a Cookie header (RFC 6265 5.4: "a=1; b=2"), or nothing.
std::optional<std::string> cookieValue(std::string_view cookie_header, std::string_view name);

// The CSRF token of a session: derived from its LIVE key's secret, so nothing more is stored and
// it ends with the session. Reveals nothing of the secret.
std::string csrfTokenFor(std::string_view live_secret);
// Compared in constant time.
bool csrfTokenMatches(std::string_view live_secret, std::string_view presented);

struct SessionSecrets {
  std::string live;
  std::string test;
};
// The Set-Cookie values that open a session for `max_age` (Secure when served over HTTPS).
std::vector<std::string> openingCookies(const SessionSecrets& secrets, std::chrono::seconds max_age,
                                        bool secure);
// The Set-Cookie values that make the browser forget it.
std::vector<std::string> closingCookies(bool secure);

}  // namespace smsgw::dashboard
