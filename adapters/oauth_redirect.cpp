#include "adapters/oauth_redirect.h"

#include <curl/curl.h>

#include <memory>
#include <optional>

namespace smsgw::oauth {
namespace {

struct UrlParts {
  std::string scheme, host, port, path, query, fragment, user, password;
};

std::string part(CURLU* handle, CURLUPart which) {
  char* value = nullptr;
  if (curl_url_get(handle, which, &value, 0) != CURLUE_OK) return "";
  std::string out = value;
  curl_free(value);
  return out;
}

std::optional<UrlParts> parse(const std::string& uri) {
  std::unique_ptr<CURLU, decltype(&curl_url_cleanup)> handle(curl_url(), curl_url_cleanup);
  // No default scheme: a redirect URI must say it (CURLU_NON_SUPPORT_SCHEME lets custom
  // schemes parse, to be refused by name rather than as malformed).
  if (curl_url_set(handle.get(), CURLUPART_URL, uri.c_str(), CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK)
    return std::nullopt;
  UrlParts out{part(handle.get(), CURLUPART_SCHEME), part(handle.get(), CURLUPART_HOST),
               part(handle.get(), CURLUPART_PORT),   part(handle.get(), CURLUPART_PATH),
               part(handle.get(), CURLUPART_QUERY),  part(handle.get(), CURLUPART_FRAGMENT),
               part(handle.get(), CURLUPART_USER),   part(handle.get(), CURLUPART_PASSWORD)};
  if (out.host.empty()) return std::nullopt;
  return out;
}

bool loopbackHost(const std::string& host) {
  return host == "127.0.0.1" || host == "[::1]" || host == "localhost";
}

}  // namespace

RedirectVerdict checkRedirectUri(const std::string& uri) {
  auto url = parse(uri);
  if (!url) return RedirectVerdict::NotAbsolute;
  if (!url->fragment.empty() || uri.find('#') != std::string::npos)
    return RedirectVerdict::HasFragment;
  if (!url->user.empty() || !url->password.empty()) return RedirectVerdict::HasCredentials;
  if (url->scheme == "https") return RedirectVerdict::Allowed;
  if (url->scheme == "http" && loopbackHost(url->host)) return RedirectVerdict::Allowed;
  return RedirectVerdict::NotHttps;
}

bool redirectUriMatches(const std::string& registered, const std::string& presented) {
  if (registered == presented) return true;
  auto a = parse(registered), b = parse(presented);
  if (!a || !b || a->scheme != "http" || !loopbackHost(a->host)) return false;
  return checkRedirectUri(presented) == RedirectVerdict::Allowed && a->scheme == b->scheme &&
         a->host == b->host && a->path == b->path && a->query == b->query;
}

std::string redirectWith(const std::string& uri,
                         const std::vector<std::pair<std::string, std::string>>& parameters) {
  std::unique_ptr<CURLU, decltype(&curl_url_cleanup)> handle(curl_url(), curl_url_cleanup);
  curl_url_set(handle.get(), CURLUPART_URL, uri.c_str(), CURLU_NON_SUPPORT_SCHEME);
  for (const auto& [name, value] : parameters) {
    std::string pair = name;
    pair.append("=").append(value);
    curl_url_set(handle.get(), CURLUPART_QUERY, pair.c_str(), CURLU_APPENDQUERY | CURLU_URLENCODE);
  }
  char* out = nullptr;
  if (curl_url_get(handle.get(), CURLUPART_URL, &out, 0) != CURLUE_OK) return uri;
  std::string text = out;
  curl_free(out);
  return text;
}

}  // namespace smsgw::oauth
