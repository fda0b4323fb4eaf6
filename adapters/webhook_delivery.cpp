#include "adapters/webhook_delivery.h"

#include "adapters/http_client.h"
#include "adapters/webhook_target.h"
#include "domain/webhook_signature.h"

namespace smsgw {

DeliveryOutcome deliverWebhook(const WebhookEndpoint& endpoint, const EventToDeliver& event,
                               TimePoint signed_at, const DeliveryOptions& options) {
  DeliveryOutcome outcome;
  ResolvedTarget target = resolveWebhookTarget(endpoint.url, options.allow_loopback);
  if (target.verdict == TargetVerdict::PrivateAddress) {
    outcome.reason = DeliveryOutcome::kSsrfBlocked;
    return outcome;
  }
  if (target.verdict != TargetVerdict::Allowed) {
    outcome.reason = "NETWORK_ERROR";  // the name no longer resolves
    return outcome;
  }
  long long timestamp = unixSeconds(signed_at);
  std::string signature = signWebhook(endpoint.secret, event.id, timestamp, event.body);
  if (endpoint.previous_secret)
    signature += " " + signWebhook(*endpoint.previous_secret, event.id, timestamp, event.body);
  HttpHeaders headers = {{"Content-Type", "application/json"},
                         {"User-Agent", "smsgw-webhooks/1"},
                         {"X-Service-Event", event.type},
                         {"X-Service-Timestamp", std::to_string(timestamp)},
                         {"X-Service-Signature", signature},
                         {"webhook-id", event.id},
                         {"webhook-timestamp", std::to_string(timestamp)},
                         {"webhook-signature", signature}};
  PinnedAddress pinned{target.target.host, target.target.port, target.address};
  HttpResponse response =
      httpRequest("POST", endpoint.url, headers, event.body, options.timeout, pinned,
                  options.keep_alive ? ConnectionUse::KeepAlive : ConnectionUse::Fresh);
  outcome.duration_ms = static_cast<int>(response.duration.count());
  if (response.status == 0) {
    outcome.reason = response.timed_out ? "TIMEOUT" : "NETWORK_ERROR";
    return outcome;
  }
  outcome.http_status = static_cast<int>(response.status);
  if (response.status >= 200 && response.status < 300) {
    outcome.success = true;
    return outcome;
  }
  outcome.reason = "HTTP_" + std::to_string(response.status);
  if (response.status >= 300 && response.status < 400) outcome.reason += "_REDIRECT_NOT_FOLLOWED";
  return outcome;
}

}  // namespace smsgw
