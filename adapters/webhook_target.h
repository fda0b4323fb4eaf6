#pragma once
// Where a webhook may point (spec "Delivery rules" 10). Production refuses loopback, private,
// link-local, multicast, carrier-grade NAT and cloud-metadata addresses, IPv4 and IPv6 alike,
// including IPv4-mapped IPv6. A local stack may allow loopback (ALLOW_PRIVATE_WEBHOOK_TARGETS;
// docs/decisions.md, "Webhooks"), nothing else. Checked at registration and again before every
// delivery, because DNS can change; the delivery then connects to the very address checked.

#include <optional>
#include <string>

namespace smsgw {

enum class TargetVerdict {
  Allowed,
  InvalidUrl,
  NotHttps,
  PrivateAddress,
  Unresolvable,
  LookupTimedOut  // the resolver did not answer within adapters/host_lookup.h's deadline
};

struct ParsedTarget {
  std::string scheme;
  std::string host;  // without the brackets of an IPv6 literal
  int port = 0;      // the scheme's default when the URL names none
};

// A target resolved and checked. When allowed, `address` is the numeric address every
// connection for this attempt must use.
struct ResolvedTarget {
  TargetVerdict verdict = TargetVerdict::InvalidUrl;
  ParsedTarget target;
  std::string address;
};

std::optional<ParsedTarget> parseWebhookUrl(const std::string& url);  // http(s) with a host only
ResolvedTarget resolveWebhookTarget(const std::string& url, bool allow_loopback);

// What registration accepts: in production (loopback not allowed) only https URLs, then the
// same address check as a delivery.
TargetVerdict checkWebhookRegistration(const std::string& url, bool allow_loopback);

// The address classes, exposed for their unit test. `text` is a numeric IPv4 or IPv6 address.
bool isInternalAddress(const std::string& text, bool allow_loopback);

}  // namespace smsgw
