#pragma once
// Blocking HTTP client over libcurl; thread-safe. Redirects are never followed (webhook rule: a
// 3xx is a failure).

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace smsgw {

struct HttpResponse {
  long status = 0;  // 0 when no response arrived
  std::string body;
  std::string error;  // curl's reason when status is 0
  bool timed_out = false;
  // Whether any of the request was written to the server: when not, it surely did nothing.
  bool request_sent = false;
  std::chrono::milliseconds duration{0};
  // The response headers the caller asked for by name (httpRequest's `read_headers`), each
  // under the name as asked; one that did not come is absent.
  std::vector<std::pair<std::string, std::string>> headers;

  const std::string* header(std::string_view name) const;
};

using HttpHeaders = std::vector<std::pair<std::string, std::string>>;

// Connect to `address` for `host`:`port` instead of resolving the host again (the webhook SSRF
// check resolved it; a second lookup could answer differently). TLS still verifies `host`.
struct PinnedAddress {
  std::string host;
  int port = 0;
  std::string address;  // numeric IPv4 or IPv6
};

// Fresh: a connection of its own, closed after the call. KeepAlive: the calling thread's
// connections stay open for its next calls to the same host and port (a handful per thread),
// for callers whose repeat of a request is harmless should a kept connection turn out closed:
// webhook deliveries, which receivers dedupe by webhook-id. Never for the carrier's send.
enum class ConnectionUse { Fresh, KeepAlive };

HttpResponse httpRequest(const std::string& method, const std::string& url,
                         const HttpHeaders& headers, const std::string& body,
                         std::chrono::milliseconds timeout,
                         const std::optional<PinnedAddress>& pinned = std::nullopt,
                         ConnectionUse use = ConnectionUse::Fresh,
                         const std::vector<std::string>& read_headers = {});

// A GET of a small document named by a stranger (an OAuth client's metadata document): the
// body may be at most `max_body_bytes` (beyond: status 0, error "too large"); the response's
// Cache-Control comes back beside it.
struct BoundedResponse {
  HttpResponse response;
  std::string cache_control;
};
BoundedResponse httpGetBounded(const std::string& url, const HttpHeaders& headers,
                               std::chrono::milliseconds timeout, const PinnedAddress& pinned,
                               size_t max_body_bytes);

}  // namespace smsgw
