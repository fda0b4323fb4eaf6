#include "domain/dashboard_session.h"

#include <openssl/crypto.h>

#include "domain/crypto.h"

namespace smsgw::dashboard {
namespace {

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// The session keys are sent to /v1 only; the CSRF token is read by the page under /dashboard.
std::string cookie(std::string_view name, std::string_view value, std::string_view path,
                   std::chrono::seconds max_age, bool http_only, bool secure) {
  std::string out = std::string(name) + "=" + std::string(value) + "; Path=" + std::string(path) +
                    "; Max-Age=" + std::to_string(max_age.count()) + "; SameSite=Strict";
  if (http_only) out += "; HttpOnly";
  if (secure) out += "; Secure";
  return out;
}

}  // namespace

std::optional<std::string> cookieValue(std::string_view cookie_header, std::string_view name) {
  while (!cookie_header.empty()) {
    size_t end = cookie_header.find(';');
    std::string_view pair = trimmed(cookie_header.substr(0, end));
    cookie_header = end == std::string_view::npos ? "" : cookie_header.substr(end + 1);
    size_t equals = pair.find('=');
    if (equals == std::string_view::npos || trimmed(pair.substr(0, equals)) != name) continue;
    std::string_view value = trimmed(pair.substr(equals + 1));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
      value = value.substr(1, value.size() - 2);
    return std::string(value);
  }
  return std::nullopt;
}

std::string csrfTokenFor(std::string_view live_secret) {
  return crypto::sha256Hex(crypto::hmacSha256(live_secret, "smsgw dashboard csrf"));
}

bool csrfTokenMatches(std::string_view live_secret, std::string_view presented) {
  std::string expected = csrfTokenFor(live_secret);
  return presented.size() == expected.size() &&
         CRYPTO_memcmp(presented.data(), expected.data(), expected.size()) == 0;
}

CookieNames cookieNames(bool secure) {
  std::string prefix = secure ? "__Host-" : "";
  return {prefix + "smsgw_live", prefix + "smsgw_test", prefix + "smsgw_csrf",
          prefix + "smsgw_browser"};
}

std::vector<std::string> openingCookies(const SessionSecrets& secrets, std::chrono::seconds max_age,
                                        bool secure) {
  CookieNames names = cookieNames(secure);
  std::string_view keys_path = secure ? "/" : "/v1";  // __Host- cookies must be Path=/
  return {cookie(names.live, secrets.live, keys_path, max_age, true, secure),
          cookie(names.test, secrets.test, keys_path, max_age, true, secure),
          cookie(names.csrf, csrfTokenFor(secrets.live), "/", max_age, false, secure)};
}

std::vector<std::string> closingCookies(bool secure) {
  CookieNames names = cookieNames(secure);
  std::string_view keys_path = secure ? "/" : "/v1";
  std::chrono::seconds gone{0};
  return {cookie(names.live, "", keys_path, gone, true, secure),
          cookie(names.test, "", keys_path, gone, true, secure),
          cookie(names.csrf, "", "/", gone, false, secure)};
}

std::string browserCookie(std::string_view token, std::chrono::seconds max_age, bool secure) {
  return cookie(cookieNames(secure).browser, token, "/", max_age, true, secure);
}

}  // namespace smsgw::dashboard
