#pragma once
// Where a webhook may point. Production refuses loopback, private, link-local and other
// internal addresses (SSRF); local stacks may allow them (ALLOW_PRIVATE_WEBHOOK_TARGETS).
// Checked at registration and again before every delivery (DNS can change).

#include <optional>
#include <string>

namespace smsgw {

enum class TargetVerdict { Allowed, InvalidUrl, PrivateAddress, Unresolvable };

struct ParsedTarget {
  std::string scheme;
  std::string host;
};

std::optional<ParsedTarget> parseWebhookUrl(const std::string& url);  // http(s) with a host only
TargetVerdict checkWebhookTarget(const std::string& url, bool allow_private);

}  // namespace smsgw
