#pragma once
// The carrier as the gateway sees it: a narrow interface and its results, pure types. The HTTP
// implementation (adapters/http_carrier_client.h) speaks Telnyx's Messaging API v2, to Telnyx
// or to ops/carrier_sim; tests may pass their own. Numbers are named by E.164 here; the carrier's
// own id for a number, where the carrier has one, travels beside it.

#include <chrono>
#include <string>
#include <vector>

namespace smsgw {

struct CarrierSendResult {
  enum class Kind {
    Accepted,           // the carrier took it: carrier_message_id and parts are set
    Refused,            // 4xx: the carrier will never send it (error_code is the carrier's code)
    Throttled,          // 429: slow down or queue full; safe to resend later
    Unavailable,        // the request never reached the carrier (no connection): surely not sent
    InDoubt,            // a 5xx, a reset or no answer in time after the request was written: the
                        // carrier may have sent it, and Telnyx's send has no idempotency key
    OptedOutAtCarrier,  // the carrier keeps its own opt-out for the recipient (Telnyx 40300, a
                        // block rule made by a STOP to any number in the rule's reach): no
                        // judgement of the destination, and maybe another customer's STOP
  };
  Kind kind = Kind::Unavailable;
  std::string carrier_message_id;
  int parts = 0;
  std::string error_code;
  std::string error_detail;
  // Throttled: how long the carrier asked us to wait before sending again (Telnyx's
  // x-ratelimit-reset); zero when it did not say.
  std::chrono::seconds retry_after{0};
  // Accepted: how long the carrier's own queue holds the text before it goes (Telnyx's
  // wait_seconds); zero when it queues nothing or did not say.
  std::chrono::milliseconds carrier_queue_wait{0};
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
  bool throttled = false;  // a 429: the carrier asks us to wait `retry_after`
  std::chrono::seconds retry_after{0};
};

// The outcome of ordering or releasing a number, or of asking how an order went.
struct NumberOperation {
  enum class Kind {
    Done,     // ordered, or released
    Pending,  // order: the carrier took the order and has not settled it; ask again later
    NotHeld,  // release: the carrier does not hold this number for us (already released);
              // order status: the carrier has no order under this reference
    Refused,  // 4xx, or an order that failed: the carrier will not do it (error_code is its)
    Failed,   // no answer, 5xx or unreadable: it may or may not have happened; ask again
  };
  Kind kind = Kind::Failed;
  std::string error_code;
  std::string error_detail;
};

// Whether the carrier holds a number for us: how a purchase or release whose answer was lost
// is settled.
enum class NumberHolding { Held, NotHeld, Unknown };

// What the carrier says now of a message it accepted (how the reconciler recovers a receipt
// that never arrived).
struct CarrierMessageStatus {
  bool ok = false;     // false when the carrier could not answer (or cannot be asked)
  std::string status;  // the receipt's words: delivered, sending_failed, delivery_failed, …
  std::string error_code;
  std::string error_title;
};

class CarrierClient {
 public:
  virtual ~CarrierClient() = default;
  virtual CarrierSendResult sendMessage(const std::string& from, const std::string& to,
                                        const std::string& text) = 0;
  virtual LookupResult lookupNumber(const std::string& number) = 0;
  virtual NumberSearchResult searchNumbers(const std::string& area_code, int limit) = 0;
  // Orders `number` under `reference` (our purchase id, unique): how a lost answer is found.
  virtual NumberOperation orderNumber(const std::string& number, const std::string& reference) = 0;
  // How the order made under `reference` stands: Done, Pending, Refused (it failed), NotHeld
  // (no such order) or Failed (the carrier could not be asked).
  virtual NumberOperation orderStatus(const std::string& reference) = 0;
  // Releases `number`, by the carrier's id for it when known (else the carrier is asked).
  virtual NumberOperation releaseNumber(const std::string& number,
                                        const std::string& carrier_number_id) = 0;
  virtual NumberHolding numberHolding(const std::string& number) = 0;
  // The carrier's id for a number it holds for us; empty when it holds none or cannot answer.
  virtual std::string carrierNumberId(const std::string& /*number*/) { return ""; }
  // A carrier that cannot be asked answers ok = false.
  virtual CarrierMessageStatus messageStatus(const std::string& /*carrier_message_id*/) {
    return {};
  }
};

}  // namespace smsgw
