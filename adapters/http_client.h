#pragma once
// Blocking HTTP client over libcurl, one easy handle per call; thread-safe.
// Redirects are never followed (webhook rule: a 3xx is a failure).

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace smsgw {

struct HttpResponse {
  long status = 0;  // 0 when no response arrived
  std::string body;
  std::string error;  // curl's reason when status is 0
  bool timed_out = false;
  std::chrono::milliseconds duration{0};
};

using HttpHeaders = std::vector<std::pair<std::string, std::string>>;

// Connect to `address` for `host`:`port` instead of resolving the host again (the webhook SSRF
// check resolved it; a second lookup could answer differently). TLS still verifies `host`.
struct PinnedAddress {
  std::string host;
  int port = 0;
  std::string address;  // numeric IPv4 or IPv6
};

HttpResponse httpRequest(const std::string& method, const std::string& url,
                         const HttpHeaders& headers, const std::string& body,
                         std::chrono::milliseconds timeout,
                         const std::optional<PinnedAddress>& pinned = std::nullopt);

}  // namespace smsgw
