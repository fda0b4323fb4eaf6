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

// The cookies' names. Over HTTPS each takes the __Host- prefix (RFC 6265bis 4.1.3.2): a browser
// keeps such a cookie only when it came Secure, with Path=/ and no Domain, from this very host,
// so neither a sibling subdomain nor a plain-HTTP page can plant or overwrite one (a planted
// session signs the owner into someone else's account). A local stack over plain HTTP cannot
// have the prefix: its names are plain, and the session keys' cookies keep to Path=/v1.
struct CookieNames {
  std::string live;     // the LIVE session key
  std::string test;     // the TEST session key
  std::string csrf;     // the session's CSRF token, which the page reads
  std::string browser;  // a browser its owner proved (browserCookie)
};
CookieNames cookieNames(bool secure);
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
// The Set-Cookie values that open a session for `max_age` (Secure, and __Host- names, when
// served over HTTPS).
std::vector<std::string> openingCookies(const SessionSecrets& secrets, std::chrono::seconds max_age,
                                        bool secure);
// The Set-Cookie values that make the browser forget it.
std::vector<std::string> closingCookies(bool secure);

// The Set-Cookie value that marks a browser its owner proved, by the right password at sign-in
// or an emailed unlock or reset link (services/accounts/trusted_browsers.h): wrong passwords
// from elsewhere never lock it out. HttpOnly, SameSite=Strict, Path=/ (the OAuth consent page
// reads it too); it outlives sign-out.
std::string browserCookie(std::string_view token, std::chrono::seconds max_age, bool secure);

}  // namespace smsgw::dashboard
