#include "adapters/webhook_target.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>

#include <algorithm>
#include <cstring>
#include <initializer_list>
#include <memory>

#include "adapters/host_lookup.h"

namespace smsgw {
namespace {

bool inV4(uint32_t a, uint32_t net, int bits) {
  return (a >> (32 - bits)) == (net >> (32 - bits));
}

bool isLoopbackV4(uint32_t a) {
  return inV4(a, 0x7F000000, 8);
}

bool isInternalV4(uint32_t a) {
  return inV4(a, 0x00000000, 8)                                 // "this network"
         || isLoopbackV4(a) || inV4(a, 0x0A000000, 8)           // 10/8
         || inV4(a, 0xAC100000, 12) || inV4(a, 0xC0A80000, 16)  // 172.16/12, 192.168/16
         || inV4(a, 0xA9FE0000, 16)                             // link-local and metadata
         || inV4(a, 0x64400000, 10)                             // carrier-grade NAT
         || inV4(a, 0xC0000000, 24) || inV4(a, 0xC6120000, 15)  // IETF, benchmarking
         || a >= 0xE0000000;                                    // multicast and reserved
}

std::optional<uint32_t> mappedV4(const in6_addr& a) {
  bool mapped = std::all_of(a.s6_addr, a.s6_addr + 10, [](uint8_t b) { return b == 0; }) &&
                a.s6_addr[10] == 0xFF && a.s6_addr[11] == 0xFF;
  if (!mapped) return std::nullopt;
  return (uint32_t(a.s6_addr[12]) << 24) | (uint32_t(a.s6_addr[13]) << 16) |
         (uint32_t(a.s6_addr[14]) << 8) | a.s6_addr[15];
}

uint32_t v4At(const in6_addr& a, int offset) {
  return (uint32_t(a.s6_addr[offset]) << 24) | (uint32_t(a.s6_addr[offset + 1]) << 16) |
         (uint32_t(a.s6_addr[offset + 2]) << 8) | a.s6_addr[offset + 3];
}

bool startsWith(const in6_addr& a, std::initializer_list<uint8_t> prefix) {
  return std::equal(prefix.begin(), prefix.end(), a.s6_addr);
}

// IPv6 forms that carry an IPv4 address a gateway or the host itself would reach: the
// well-known NAT64 prefix 64:ff9b::/96, SIIT's ::ffff:0:0/96 and 6to4's 2002::/16.
std::optional<uint32_t> embeddedV4(const in6_addr& a) {
  if (startsWith(a, {0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0})) return v4At(a, 12);
  if (startsWith(a, {0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0})) return v4At(a, 12);
  if (startsWith(a, {0x20, 0x02})) return v4At(a, 2);
  return std::nullopt;
}

// Prefixes refused whole: IPv4-compatible ::a.b.c.d (::/96, deprecated, and read as IPv4 by
// some stacks), local-use NAT64 64:ff9b:1::/48 (its IPv4 mapping is the network's own),
// Teredo 2001::/32 (the peer's address is hidden), documentation 2001:db8::/32 and the discard
// prefix 100::/64.
bool inRefusedV6Prefix(const in6_addr& a) {
  return startsWith(a, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}) ||
         startsWith(a, {0, 0x64, 0xff, 0x9b, 0, 0x01}) || startsWith(a, {0x20, 0x01, 0, 0}) ||
         startsWith(a, {0x20, 0x01, 0x0d, 0xb8}) || startsWith(a, {0x01, 0, 0, 0, 0, 0, 0, 0});
}

bool isInternalV6(const in6_addr& a, bool allow_loopback) {
  static const in6_addr kLoopback = IN6ADDR_LOOPBACK_INIT;
  static const in6_addr kAny = IN6ADDR_ANY_INIT;
  if (auto v4 = mappedV4(a)) return isInternalV4(*v4) && !(allow_loopback && isLoopbackV4(*v4));
  if (auto v4 = embeddedV4(a)) return isInternalV4(*v4);
  if (std::memcmp(&a, &kLoopback, sizeof a) == 0) return !allow_loopback;
  if (std::memcmp(&a, &kAny, sizeof a) == 0) return true;
  if (inRefusedV6Prefix(a)) return true;
  if ((a.s6_addr[0] & 0xFE) == 0xFC) return true;                          // unique local fc00::/7
  if (a.s6_addr[0] == 0xFE && (a.s6_addr[1] & 0xC0) == 0x80) return true;  // link-local fe80::/10
  if (a.s6_addr[0] == 0xFF) return true;                                   // multicast
  // fd00:ec2::254 (AWS metadata) is unique local, caught above.
  return false;
}

bool isInternal(const sockaddr* address, bool allow_loopback) {
  if (address->sa_family == AF_INET) {
    uint32_t a = ntohl(reinterpret_cast<const sockaddr_in*>(address)->sin_addr.s_addr);
    return isInternalV4(a) && !(allow_loopback && isLoopbackV4(a));
  }
  if (address->sa_family == AF_INET6)
    return isInternalV6(reinterpret_cast<const sockaddr_in6*>(address)->sin6_addr, allow_loopback);
  return true;  // anything else is not a place to deliver to
}

std::string numericAddress(const sockaddr_storage& address) {
  char text[INET6_ADDRSTRLEN] = {};
  if (address.ss_family == AF_INET)
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(&address)->sin_addr, text,
              sizeof text);
  else
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(&address)->sin6_addr, text,
              sizeof text);
  return text;
}

std::string urlPart(CURLU* handle, CURLUPart part, unsigned flags = 0) {
  char* value = nullptr;
  if (curl_url_get(handle, part, &value, flags) != CURLUE_OK) return "";
  std::string out = value;
  curl_free(value);
  return out;
}

}  // namespace

std::optional<ParsedTarget> parseWebhookUrl(const std::string& url) {
  std::unique_ptr<CURLU, decltype(&curl_url_cleanup)> handle(curl_url(), curl_url_cleanup);
  if (curl_url_set(handle.get(), CURLUPART_URL, url.c_str(), 0) != CURLUE_OK) return std::nullopt;
  ParsedTarget out;
  out.scheme = urlPart(handle.get(), CURLUPART_SCHEME);
  out.host = urlPart(handle.get(), CURLUPART_HOST);
  if (out.scheme != "http" && out.scheme != "https") return std::nullopt;
  if (out.host.empty()) return std::nullopt;
  // Credentials would be sent to the customer's server with every event and shown back in the
  // Webhook resource: refused.
  if (!urlPart(handle.get(), CURLUPART_USER).empty() ||
      !urlPart(handle.get(), CURLUPART_PASSWORD).empty())
    return std::nullopt;
  // A delivery connects to the address checked by pinning it for the host name libcurl looks
  // up; for an internationalized name that is its punycode form, not the one written here, so
  // the pin would not hold. Such a host is refused; its xn-- form is accepted.
  bool ascii = std::all_of(out.host.begin(), out.host.end(),
                           [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  if (!ascii || out.host.find('%') != std::string::npos) return std::nullopt;
  if (out.host.front() == '[') out.host = out.host.substr(1, out.host.size() - 2);
  std::string port = urlPart(handle.get(), CURLUPART_PORT, CURLU_DEFAULT_PORT);
  out.port = port.empty() ? 0 : std::stoi(port);
  return out;
}

ResolvedTarget resolveWebhookTarget(const std::string& url, bool allow_loopback) {
  ResolvedTarget out;
  auto target = parseWebhookUrl(url);
  if (!target) return out;
  out.target = *target;
  HostLookup lookup = lookupHost(target->host);
  if (lookup.status != LookupStatus::Found) {
    out.verdict = lookup.status == LookupStatus::TimedOut ? TargetVerdict::LookupTimedOut
                                                          : TargetVerdict::Unresolvable;
    return out;
  }
  // Every address the name has must be acceptable: a resolver that answers with a mix could
  // otherwise steer a later connection to the internal one.
  for (const sockaddr_storage& address : lookup.addresses) {
    if (isInternal(reinterpret_cast<const sockaddr*>(&address), allow_loopback)) {
      out.verdict = TargetVerdict::PrivateAddress;
      return out;
    }
  }
  out.verdict = TargetVerdict::Allowed;
  out.address = numericAddress(lookup.addresses.front());
  return out;
}

TargetVerdict checkWebhookRegistration(const std::string& url, bool allow_loopback) {
  auto target = parseWebhookUrl(url);
  if (!target) return TargetVerdict::InvalidUrl;
  if (!allow_loopback && target->scheme != "https") return TargetVerdict::NotHttps;
  return resolveWebhookTarget(url, allow_loopback).verdict;
}

bool isInternalAddress(const std::string& text, bool allow_loopback) {
  sockaddr_in v4{};
  sockaddr_in6 v6{};
  if (inet_pton(AF_INET, text.c_str(), &v4.sin_addr) == 1) {
    v4.sin_family = AF_INET;
    return isInternal(reinterpret_cast<const sockaddr*>(&v4), allow_loopback);
  }
  if (inet_pton(AF_INET6, text.c_str(), &v6.sin6_addr) == 1) {
    v6.sin6_family = AF_INET6;
    return isInternal(reinterpret_cast<const sockaddr*>(&v6), allow_loopback);
  }
  return true;
}

}  // namespace smsgw
