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

#include "ops/carrier_sim/block_rules.h"

namespace smsgw::sim {

struct SimMessage {
  std::string id, from, to, text, created_at;
  int parts = 1;
  std::string status = "delivered";  // the receipt's word, decided when the text is taken
  std::string error_code;            // with a failed receipt
  std::string webhook_url;           // the send's own webhook_url: its callbacks go there
};

struct SendFault {
  std::string mode;  // refuse, error, timeout, throttle, accept_502
  std::string code;
  int reset_seconds = 1;  // throttle: how long the rate-limit window it opens stays shut
  // Only sends from `from` and to `to` meet the fault (empty: any): tests running beside each
  // other share one simulator, and one test's send must not use up another's fault.
  std::string from, to;
  // throttle: whether the window shuts for the whole account, as Telnyx's does (its limit is
  // the API key's), or only for the sends this fault meets, so that it delays no other test.
  bool scoped_window = false;
};

struct ReceiptFault {
  std::string status;  // delivery_failed, sending_failed, expired, delivery_unconfirmed
  std::string code;
};

// A number order as Telnyx keeps it: found by its id or by the customer reference it was
// placed under. A pending order settles to `settles_to` the first time it is read.
struct SimOrder {
  std::string id, number, reference;
  std::string number_id;             // the order's record of the number (a UUID at Telnyx)
  std::string messaging_profile_id;  // empty: none given
  std::string status;                // pending, success, failure
  std::string settles_to;  // what a pending order becomes when read: success, failure, pending
};

// A phone number record as Telnyx keeps one: its id is numeric (Telnyx's IntId), and it stays
// listed after its release, `deleted`. Status: purchase-pending, purchase-failed, active,
// deleted (the ones of Telnyx's list this simulator reaches).
struct SimNumber {
  std::string id, number;
  std::string status = "active";
  std::string messaging_profile_id;  // empty: none, which Telnyx's order allows
  std::string created_at;            // ISO 8601, when it was ordered
};

// The carrier's stock of numbers in an area code: the same numbers on every run and machine,
// so a search can be repeated and a number found once can be ordered later. Exchanges are
// 200-999 except N11 and 555.
inline constexpr int kInventoryPerAreaCode = 100;
std::vector<std::string> inventoryFor(const std::string& area_code);
bool inInventory(const std::string& e164);

class SimState {
 public:
  // What Telnyx does with a stop word when no fault says otherwise for the subscriber.
  explicit SimState(OptOutHandling opt_out_handling = OptOutHandling::Off)
      : opt_out_handling_(opt_out_handling) {}

  void recordMessage(SimMessage message);
  std::vector<SimMessage> messages(const std::string& to_filter) const;  // newest first
  std::optional<SimMessage> message(const std::string& id) const;

  // Validates and stores a fault from POST /sim/faults; returns an error text when invalid.
  std::optional<std::string> addFault(const nlohmann::json& fault);
  void clearFaults();

  // The first fault a send from `from` to `to` meets, used up by one.
  std::optional<SendFault> takeSendFault(const std::string& from, const std::string& to);
  // A throttle shuts the account's rate-limit window, as Telnyx's does, for its reset seconds
  // (or only for the sends it meets, when it is scoped): every send meanwhile is answered 429.
  void shutRateWindow(const SendFault& throttle);
  // The whole seconds left before a send from `from` to `to` may pass (0: open).
  int windowShutFor(const std::string& from, const std::string& to) const;
  bool takeCountedFault(const std::string& kind);  // search, order, release, release_404
  std::optional<ReceiptFault> receiptFaultFor(const std::string& to) const;
  std::string lineTypeOf(const std::string& number) const;  // mobile unless a fault says otherwise
  // Telnyx's wait_seconds for a send from `from`: how long its own queue holds the text before
  // the carrier gets it (0 unless a queue fault says otherwise).
  double queueWaitOf(const std::string& from) const;

  // Orders and the numbers they bring. placeOrder: nothing when the number is not in stock,
  // held, or in a pending order; a pending-order fault makes the order pending.
  std::optional<SimOrder> placeOrder(const std::string& number, const std::string& reference,
                                     const std::string& messaging_profile_id);
  // By id, or else the newest under `reference`; a pending order settles here first.
  std::optional<SimOrder> findOrder(const std::string& id, const std::string& reference);
  std::optional<SimNumber> heldNumber(const std::string& number) const;  // active
  std::optional<SimNumber> heldNumberById(const std::string& id) const;  // active
  bool releaseById(const std::string& id);          // false when no active number has this id
  bool isOrdered(const std::string& number) const;  // active, or in a pending order
  // Every record whose digits hold `digits` (all of them when it is empty), newest first, as
  // GET /v2/phone_numbers?filter[phone_number]= finds them.
  std::vector<SimNumber> numbersMatching(const std::string& digits) const;

  // Telnyx's own opt-out handling (block_rules.h). A text from a subscriber to `number`:
  // Telnyx's automatic reply, when it answers one. A send's block: whether a rule refuses it.
  // A number's profile is the one it was ordered in, else the send's `messaging_profile_id`,
  // else the simulator's profile (kSimulatorMessagingProfileId).
  std::optional<std::string> autoReplyTo(const std::string& subscriber, const std::string& number,
                                         const std::string& text);
  bool blockedByRule(const std::string& from, const std::string& to,
                     const std::string& send_profile) const;

 private:
  mutable std::mutex mutex_;
  std::vector<SimMessage> messages_;
  std::vector<std::pair<SendFault, int>> send_faults_;
  std::chrono::steady_clock::time_point window_opens_{};
  std::vector<std::pair<SendFault, std::chrono::steady_clock::time_point>> scoped_windows_;
  std::map<std::string, int> counted_faults_;
  std::map<std::string, ReceiptFault> receipt_faults_;
  std::map<std::string, std::string> line_types_;
  std::map<std::string, double> queue_waits_;
  std::vector<std::string> pending_order_faults_;  // what each next order settles to
  std::vector<SimOrder> orders_;
  std::vector<SimNumber> numbers_;  // every record, oldest first
  OptOutHandling opt_out_handling_;
  std::map<std::string, OptOutHandling> opt_out_handling_for_;  // by subscriber, from faults
  BlockRules block_rules_;

  // Under mutex_: the active record of `number`, if any, and the profile it was ordered in.
  const SimNumber* heldRecord(const std::string& number) const;
  std::string profileOf(const std::string& number, const std::string& fallback) const;
};

}  // namespace smsgw::sim
