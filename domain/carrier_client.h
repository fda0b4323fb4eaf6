#pragma once
// The carrier as the gateway sees it. One HTTP implementation speaks the Telnyx-v2-shaped
// protocol of the real carrier and of ops/carrier_sim; tests may pass their own.

#include <chrono>
#include <string>
#include <vector>

#include "domain/http_client.h"

namespace smsgw {

struct CarrierSendResult {
  enum class Kind {
    Accepted,     // the carrier took it: carrier_message_id and parts are set
    Refused,      // 4xx: the carrier will never send it (error_code is the carrier's code)
    Throttled,    // 429: slow down or queue full; safe to resend later
    Unavailable,  // 5xx or connection failure; not sent
    Timeout,      // no answer in time: the carrier may or may not have sent it
  };
  Kind kind = Kind::Unavailable;
  std::string carrier_message_id;
  int parts = 0;
  std::string error_code;
  std::string error_detail;
};

enum class LineType { Mobile, Landline, Voip, Unknown };

struct LookupResult {
  bool ok = false;  // false when the carrier could not answer
  LineType line_type = LineType::Unknown;
};

struct AvailableNumber {
  std::string phone_number;               // E.164
  std::vector<std::string> capabilities;  // sms, voice, …
};

struct NumberSearchResult {
  bool ok = false;  // false when the carrier could not answer
  std::vector<AvailableNumber> numbers;
  std::string error_detail;
};

// The outcome of ordering or releasing a number.
struct NumberOperation {
  enum class Kind {
    Done,     // ordered, or released
    NotHeld,  // release: the carrier does not hold this number for us (already released)
    Refused,  // 4xx: the carrier will not do it (error_code is the carrier's)
    Failed,   // no answer, 5xx or unreadable: it may or may not have happened; ask again
  };
  Kind kind = Kind::Failed;
  std::string error_code;
  std::string error_detail;
};

// Whether the carrier holds a number for us: how a purchase or release whose answer was lost
// is settled.
enum class NumberHolding { Held, NotHeld, Unknown };

class CarrierClient {
 public:
  virtual ~CarrierClient() = default;
  virtual CarrierSendResult sendMessage(const std::string& from, const std::string& to,
                                        const std::string& text) = 0;
  virtual LookupResult lookupNumber(const std::string& number) = 0;
  virtual NumberSearchResult searchNumbers(const std::string& area_code, int limit) = 0;
  virtual NumberOperation orderNumber(const std::string& number) = 0;
  virtual NumberOperation releaseNumber(const std::string& number) = 0;
  virtual NumberHolding numberHolding(const std::string& number) = 0;
};

struct CarrierClientConfig {
  std::string base_url;  // e.g. http://127.0.0.1:8090
  std::string api_key;
  std::chrono::milliseconds timeout{5000};

  // CARRIER_BASE_URL, CARRIER_API_KEY (the simulator's key only on a local stack: env::secret),
  // CARRIER_TIMEOUT_MS. Throws std::invalid_argument naming what is wrong.
  static CarrierClientConfig fromEnvironment();
};

// The carrier simulator's defaults (ops/carrier_sim), which only a local stack may use.
inline constexpr const char* kSimulatorApiKey = "sim-key";
inline constexpr const char* kSimulatorCallbackSecret = "sim-callback-secret";

class HttpCarrierClient final : public CarrierClient {
 public:
  explicit HttpCarrierClient(CarrierClientConfig config) : config_(std::move(config)) {}
  CarrierSendResult sendMessage(const std::string& from, const std::string& to,
                                const std::string& text) override;
  LookupResult lookupNumber(const std::string& number) override;
  NumberSearchResult searchNumbers(const std::string& area_code, int limit) override;
  NumberOperation orderNumber(const std::string& number) override;
  NumberOperation releaseNumber(const std::string& number) override;
  NumberHolding numberHolding(const std::string& number) override;

 private:
  HttpHeaders authorization() const;
  HttpHeaders jsonHeaders() const;

  CarrierClientConfig config_;
};

}  // namespace smsgw
