#pragma once
// The carrier simulator's memory: texts it accepted and the faults tests injected.
// Thread-safe (one mutex); faults with a count are used up one per matching call.

#include <chrono>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace smsgw::sim {

struct SimMessage {
  std::string id, from, to, text, created_at;
  int parts = 1;
  std::string status = "delivered";  // the receipt's word, decided when the text is taken
  std::string error_code;            // with a failed receipt
};

struct SendFault {
  std::string mode;  // refuse, error, timeout, throttle
  std::string code;
};

struct ReceiptFault {
  std::string status;  // delivery_failed, sending_failed, expired, delivery_unconfirmed
  std::string code;
};

// The carrier's stock of numbers in an area code: the same numbers on every run and machine,
// so a search can be repeated and a number found once can be ordered later. Exchanges are
// 200-999 except N11 and 555.
inline constexpr int kInventoryPerAreaCode = 100;
std::vector<std::string> inventoryFor(const std::string& area_code);
bool inInventory(const std::string& e164);

class SimState {
 public:
  void recordMessage(SimMessage message);
  std::vector<SimMessage> messages(const std::string& to_filter) const;  // newest first
  std::optional<SimMessage> message(const std::string& id) const;

  // Validates and stores a fault from POST /sim/faults; returns an error text when invalid.
  std::optional<std::string> addFault(const nlohmann::json& fault);
  void clearFaults();

  std::optional<SendFault> takeSendFault();
  bool takeCountedFault(const std::string& kind);  // search, order, release
  std::optional<ReceiptFault> receiptFaultFor(const std::string& to) const;
  std::string lineTypeOf(const std::string& number) const;  // mobile unless a fault says otherwise

  // Numbers the gateway ordered from this carrier.
  bool orderNumber(const std::string& number);    // false when already ordered or not in stock
  bool releaseNumber(const std::string& number);  // false when not held
  bool isOrdered(const std::string& number) const;

 private:
  mutable std::mutex mutex_;
  std::vector<SimMessage> messages_;
  std::vector<std::pair<SendFault, int>> send_faults_;
  std::map<std::string, int> counted_faults_;
  std::map<std::string, ReceiptFault> receipt_faults_;
  std::map<std::string, std::string> line_types_;
  std::map<std::string, bool> ordered_;
};

}  // namespace smsgw::sim
