#pragma once
// A carrier for integration tests: sells each number once, releases what it sold, and lets a
// test script any answer (refusals, lost answers, a call that never returns, a crash) per call.
// Stands in for the external carrier only; our own database and broker stay real.
// Thread-safe.

#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "domain/carrier_client.h"

namespace smsgw::testing {

class FakeCarrier final : public CarrierClient {
 public:
  using Script = std::function<NumberOperation(const std::string& number)>;
  struct SentText {
    std::string from, to, text;
  };

  // Unset scripts fall back to the honest behaviour above.
  Script on_order;
  Script on_release;
  std::function<NumberHolding(const std::string& number)> on_holding;
  // How the order under a reference stands (a pending order, say); unset: see orderStatus.
  std::function<NumberOperation(const std::string& reference)> on_order_status;
  // Accepts every text unless scripted; each call is recorded, whatever the answer.
  std::function<CarrierSendResult(const SentText&)> on_send;
  // What the carrier says of a message it took; unset, it cannot be asked.
  std::function<CarrierMessageStatus(const std::string& carrier_message_id)> on_status;
  // The answer of a carrier that took the text, for scripts.
  static CarrierSendResult acceptedAs(const std::string& carrier_message_id, int parts = 1);

  std::atomic<int> orders{0};
  std::atomic<int> releases{0};

  bool holds(const std::string& number) const;
  std::vector<SentText> sent() const;
  void sell(const std::string& number);  // as if an order had gone through

  CarrierSendResult sendMessage(const std::string&, const std::string&,
                                const std::string&) override;
  LookupResult lookupNumber(const std::string&) override;
  NumberSearchResult searchNumbers(const std::string& area_code, int limit) override;
  NumberOperation orderNumber(const std::string& number, const std::string& reference) override;
  // Unscripted: Done when the fake holds the number ordered under `reference`, NotHeld
  // otherwise (a scripted order that failed left none behind).
  NumberOperation orderStatus(const std::string& reference) override;
  // Records the id it was given (release_ids()).
  NumberOperation releaseNumber(const std::string& number, const std::string& id) override;
  NumberHolding numberHolding(const std::string& number) override;
  // "fake-id-" and the number, for a number the fake holds.
  std::string carrierNumberId(const std::string& number) override;
  std::vector<std::string> release_ids() const;
  CarrierMessageStatus messageStatus(const std::string& carrier_message_id) override {
    return on_status ? on_status(carrier_message_id) : CarrierMessageStatus{};
  }

 private:
  mutable std::mutex mutex_;
  std::set<std::string> held_;
  std::map<std::string, std::string> references_;  // order reference -> number
  std::vector<std::string> release_ids_;
  std::vector<SentText> sent_;
};

NumberOperation operation(NumberOperation::Kind kind, std::string code = "");

}  // namespace smsgw::testing
