#pragma once
// The carrier over HTTP: Telnyx's Messaging API v2 as published (docs/carrier.md), spoken to
// Telnyx itself or to ops/carrier_sim. Thread-safe (each call makes its own request).

#include <chrono>
#include <string>
#include <string_view>

#include "adapters/http_client.h"
#include "domain/carrier_client.h"

namespace smsgw {

struct CarrierClientConfig {
  std::string base_url;  // e.g. http://127.0.0.1:8090
  std::string api_key;
  std::string messaging_profile_id;  // numbers we order join it: its webhook URL, its sending
  std::chrono::milliseconds timeout{5000};
  // Given with every send as its webhook_url: where Telnyx posts that text's message.sent and
  // message.finalized. Empty: the messaging profile's URL.
  std::string webhook_url;
};

// Telnyx's number lookup line type (`data.carrier.type`) as ours: mobile; voip; what cannot
// take a text (fixed line, pager, voicemail, premium rate, shared cost, uan) as Landline;
// what may or may not (fixed line or mobile, toll free, personal number, unknown, anything
// new) as Unknown, which is not refused.
LineType lineTypeOfTelnyx(std::string_view carrier_type);

// A phone number record's `status` (Telnyx's document lists purchase-pending, purchase-failed,
// port-pending, port-failed, active, deleted, emergency-only, ported-out, port-out-pending) as
// whether Telnyx holds, and bills, the number for us: active, emergency-only and
// port-out-pending are held; deleted, purchase-failed, port-failed and ported-out are not; a
// purchase or port still pending, or a word Telnyx may add, is neither (Unknown: ask again).
NumberHolding holdingOfTelnyx(std::string_view status);

// How long a 429 asks us to wait: Telnyx's x-ratelimit-reset (seconds until its window
// resets), else a Retry-After in seconds; zero when neither is a number of seconds.
std::chrono::seconds waitAskedByCarrier(const std::string* ratelimit_reset,
                                        const std::string* retry_after);

// The carrier simulator's defaults (ops/carrier_sim), which only a local stack may use.
inline constexpr const char* kSimulatorApiKey = "sim-key";
inline constexpr const char* kSimulatorBaseUrl = "http://127.0.0.1:8090";
inline constexpr const char* kSimulatorMessagingProfileId = "sim-messaging-profile";
// Telnyx's "Blocked due to STOP message": a send refused by its own opt-out block rule.
inline constexpr const char* kTelnyxBlockRuleCode = "40300";
// The simulator signs its callbacks as Telnyx does, with this published Ed25519 key pair (base64
// of the raw 32 bytes); a production process refuses the public one, since anyone can sign with
// its private half.
inline constexpr const char* kSimulatorWebhookPrivateKey =
    "wBHkV/YfOUSu8AuN34MKfC838Wjexp3bKqLn2XsyYNA=";
inline constexpr const char* kSimulatorWebhookPublicKey =
    "6CIaODI8VKej2Koxy5F0ReZSA8axRLF8gtXGUxLjZbw=";

class HttpCarrierClient final : public CarrierClient {
 public:
  explicit HttpCarrierClient(CarrierClientConfig config) : config_(std::move(config)) {}
  CarrierSendResult sendMessage(const std::string& from, const std::string& to,
                                const std::string& text) override;
  LookupResult lookupNumber(const std::string& number) override;
  NumberSearchResult searchNumbers(const std::string& area_code, int limit) override;
  NumberOperation orderNumber(const std::string& number, const std::string& reference) override;
  NumberOperation orderStatus(const std::string& reference) override;
  NumberOperation releaseNumber(const std::string& number,
                                const std::string& carrier_number_id) override;
  NumberHolding numberHolding(const std::string& number) override;
  std::string carrierNumberId(const std::string& number) override;
  CarrierMessageStatus messageStatus(const std::string& carrier_message_id) override;

 private:
  struct Found {
    NumberHolding holding = NumberHolding::Unknown;
    std::string id;
  };
  // GET /v2/phone_numbers?filter[phone_number]=DIGITS: Telnyx names numbers by its own
  // (numeric) ids, keeps released ones listed as deleted, and finds nothing for a '+'.
  Found findNumber(const std::string& number);
  HttpHeaders authorization() const;
  HttpHeaders jsonHeaders() const;

  CarrierClientConfig config_;
};

}  // namespace smsgw
