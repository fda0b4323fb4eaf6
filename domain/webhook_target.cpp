#include "domain/webhook_target.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netdb.h>

#include <algorithm>
#include <cstring>
#include <memory>

namespace smsgw {
namespace {

bool isInternalV4(uint32_t a) {
  auto in = [a](uint32_t net, int bits) { return (a >> (32 - bits)) == (net >> (32 - bits)); };
  return in(0x00000000, 8) || in(0x0A000000, 8) || in(0x7F000000, 8) || in(0xA9FE0000, 16) ||
         in(0xAC100000, 12) || in(0xC0A80000, 16) || in(0x64400000, 10) || in(0xC0000000, 24) ||
         in(0xC6120000, 15) || a >= 0xE0000000;
}

bool isInternalV6(const in6_addr& a) {
  static const in6_addr kLoopback = IN6ADDR_LOOPBACK_INIT;
  static const in6_addr kAny = IN6ADDR_ANY_INIT;
  if (std::memcmp(&a, &kLoopback, sizeof a) == 0 || std::memcmp(&a, &kAny, sizeof a) == 0)
    return true;
  if ((a.s6_addr[0] & 0xFE) == 0xFC) return true;                          // unique local fc00::/7
  if (a.s6_addr[0] == 0xFE && (a.s6_addr[1] & 0xC0) == 0x80) return true;  // link-local fe80::/10
  if (a.s6_addr[0] == 0xFF) return true;                                   // multicast
  bool v4_mapped = std::all_of(a.s6_addr, a.s6_addr + 10, [](uint8_t b) { return b == 0; }) &&
                   a.s6_addr[10] == 0xFF && a.s6_addr[11] == 0xFF;
  if (v4_mapped) {
    uint32_t v4 = (uint32_t(a.s6_addr[12]) << 24) | (uint32_t(a.s6_addr[13]) << 16) |
                  (uint32_t(a.s6_addr[14]) << 8) | a.s6_addr[15];
    return isInternalV4(v4);
  }
  return false;
}

}  // namespace

std::optional<ParsedTarget> parseWebhookUrl(const std::string& url) {
  std::unique_ptr<CURLU, decltype(&curl_url_cleanup)> handle(curl_url(), curl_url_cleanup);
  if (curl_url_set(handle.get(), CURLUPART_URL, url.c_str(), 0) != CURLUE_OK) return std::nullopt;
  char* scheme = nullptr;
  char* host = nullptr;
  if (curl_url_get(handle.get(), CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK) return std::nullopt;
  ParsedTarget out{scheme, ""};
  curl_free(scheme);
  if (curl_url_get(handle.get(), CURLUPART_HOST, &host, 0) != CURLUE_OK) return std::nullopt;
  out.host = host;
  curl_free(host);
  if (out.scheme != "http" && out.scheme != "https") return std::nullopt;
  if (!out.host.empty() && out.host.front() == '[')
    out.host = out.host.substr(1, out.host.size() - 2);
  return out;
}

TargetVerdict checkWebhookTarget(const std::string& url, bool allow_private) {
  auto target = parseWebhookUrl(url);
  if (!target || target->host.empty()) return TargetVerdict::InvalidUrl;
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(target->host.c_str(), nullptr, &hints, &found) != 0 || !found)
    return TargetVerdict::Unresolvable;
  std::unique_ptr<addrinfo, decltype(&freeaddrinfo)> guard(found, freeaddrinfo);
  if (allow_private) return TargetVerdict::Allowed;
  for (addrinfo* ai = found; ai; ai = ai->ai_next) {
    if (ai->ai_family == AF_INET) {
      uint32_t a = ntohl(reinterpret_cast<sockaddr_in*>(ai->ai_addr)->sin_addr.s_addr);
      if (isInternalV4(a)) return TargetVerdict::PrivateAddress;
    } else if (ai->ai_family == AF_INET6) {
      if (isInternalV6(reinterpret_cast<sockaddr_in6*>(ai->ai_addr)->sin6_addr))
        return TargetVerdict::PrivateAddress;
    }
  }
  return TargetVerdict::Allowed;
}

}  // namespace smsgw
