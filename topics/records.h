#pragma once
// Record contracts: the JSON payload of each topic. Every payload carries "v" (contract
// version); readers refuse versions they do not know as permanent errors (dead-lettered).

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace smsgw::topics {

// A record that can never be handled (malformed, unknown version): goes to `<topic>.dlq`.
class PermanentError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A failure worth retrying (database or broker briefly away).
class RetryableError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// sms.outbound, v1: a queued message the sender worker must hand to the carrier.
struct OutboundSms {
  std::string message_id;
  std::string account_id;
  std::string from;
  std::string mode;  // LIVE or TEST
  nlohmann::json toJson() const;
  static OutboundSms parse(const std::string& payload);
};

// carrier.receipts, v1: the carrier's final word on a message it accepted (Telnyx's
// message.finalized, or a poll that found a final status).
struct CarrierReceipt {
  std::string carrier_message_id;
  std::string status;  // the recipient's: delivered, delivery_failed, delivery_unconfirmed, …
  nlohmann::json errors = nlohmann::json::array();  // [{code, title, detail}]
  // What the text was, as the carrier reports it (empty or 0 when not given): how a send whose
  // answer was lost is recognised by its receipt. The body travels only as its SHA-256.
  std::string from{};
  std::string to{};
  std::string text_sha256{};
  int parts = 0;
  nlohmann::json toJson() const;
  static CarrierReceipt parse(const std::string& payload);
};

// sms.inbound, v1: a text a subscriber sent to one of the account numbers.
struct InboundSms {
  std::string carrier_message_id;
  std::string from;
  std::string to;
  std::string text;
  int parts = 1;
  std::string received_at;
  nlohmann::json toJson() const;
  static InboundSms parse(const std::string& payload);
};

// billing.rent, v1: work for the rent-billing worker on one number, decided by the billing
// pass as of `as_of`: "collect" rent period `period`, or "expire" a suspension whose grace
// period ended. Handlers re-check the number's state, so stale or replayed records do nothing.
struct BillingRent {
  std::string phone_number_id;
  std::string action;  // collect, expire
  int period = 0;      // collect: the rent period (2 = the second month); expire: 0
  std::string as_of;   // ISO 8601 UTC
  nlohmann::json toJson() const;
  static BillingRent parse(const std::string& payload);
};

// events, v1: the webhook envelope (spec "Registration and envelope") plus "v".
struct EventRecord {
  std::string id;
  std::string type;
  std::string created;
  std::string account_id;
  bool livemode = false;
  nlohmann::json data;
  nlohmann::json envelope() const;  // exactly the delivered body, without "v"
  nlohmann::json toJson() const;
  static EventRecord parse(const std::string& payload);
};

// Parses a payload and checks its contract version; throws PermanentError otherwise.
nlohmann::json parseVersioned(const std::string& payload, int expected_version);

}  // namespace smsgw::topics
