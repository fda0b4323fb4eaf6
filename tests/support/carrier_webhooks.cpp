#include "tests/support/carrier_webhooks.h"

#include <chrono>

#include "adapters/http_carrier_client.h"
#include "domain/carrier_callback.h"
#include "domain/clock.h"
#include "domain/crypto.h"

namespace smsgw::testing {

Headers telnyxSignedHeaders(const std::string& body, long long timestamp) {
  if (timestamp == 0) timestamp = unixSeconds(std::chrono::system_clock::now());
  std::string private_key = crypto::base64Decode(kSimulatorWebhookPrivateKey);
  return {{"Content-Type", "application/json"},
          {"telnyx-timestamp", std::to_string(timestamp)},
          {"telnyx-signature-ed25519", signTelnyxWebhook(private_key, timestamp, body)}};
}

nlohmann::json telnyxWebhook(const std::string& event_type, const nlohmann::json& payload) {
  return {{"data",
           {{"event_type", event_type},
            {"id", crypto::uuid4()},
            {"occurred_at", formatIso(std::chrono::system_clock::now())},
            {"payload", payload},
            {"record_type", "event"}}},
          {"meta", {{"attempt", 1}}}};
}

}  // namespace smsgw::testing
