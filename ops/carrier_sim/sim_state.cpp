#include "ops/carrier_sim/sim_state.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "adapters/http_carrier_client.h"
#include "domain/clock.h"
#include "domain/crypto.h"

namespace smsgw::sim {

std::vector<std::string> inventoryFor(const std::string& area_code) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (int i = 0; static_cast<int>(out.size()) < kInventoryPerAreaCode; ++i) {
    std::string digest = crypto::sha256(area_code + ":" + std::to_string(i));
    auto byte = [&](int k) { return static_cast<unsigned char>(digest[static_cast<size_t>(k)]); };
    int exchange = 200 + (byte(0) * 256 + byte(1)) % 800;
    if (exchange % 100 == 11 || exchange == 555) continue;
    int line = (byte(2) * 256 + byte(3)) % 10000;
    std::string number = fmt::format("+1{}{:03d}{:04d}", area_code, exchange, line);
    if (seen.insert(number).second) out.push_back(number);
  }
  return out;
}

bool inInventory(const std::string& e164) {
  if (e164.size() != 12 || !e164.starts_with("+1")) return false;
  auto stock = inventoryFor(e164.substr(2, 3));
  return std::find(stock.begin(), stock.end(), e164) != stock.end();
}

void SimState::recordMessage(SimMessage message) {
  std::lock_guard lock(mutex_);
  messages_.push_back(std::move(message));
}

std::optional<SimMessage> SimState::message(const std::string& id) const {
  std::lock_guard lock(mutex_);
  for (const auto& message : messages_) {
    if (message.id == id) return message;
  }
  return std::nullopt;
}

std::vector<SimMessage> SimState::messages(const std::string& to_filter) const {
  std::lock_guard lock(mutex_);
  std::vector<SimMessage> out;
  for (auto it = messages_.rbegin(); it != messages_.rend(); ++it) {
    if (to_filter.empty() || it->to == to_filter) out.push_back(*it);
  }
  return out;
}

std::optional<std::string> SimState::addFault(const nlohmann::json& f) {
  if (!f.is_object() || !f.contains("kind") || !f["kind"].is_string()) return "kind is required";
  std::string kind = f["kind"];
  std::lock_guard lock(mutex_);
  if (kind == "send") {
    std::string mode = f.value("mode", "");
    if (mode != "refuse" && mode != "error" && mode != "timeout" && mode != "throttle" &&
        mode != "accept_502") {
      return "mode must be refuse, error, timeout, throttle or accept_502";
    }
    int count = f.value("count", 1);
    if (count < 1) return "count must be at least 1";
    int reset = f.value("reset", 1);
    if (reset < 1 || reset > 3600) return "reset must be 1 to 3600 seconds";
    std::string code = mode == "refuse" ? "40008" : "";  // Telnyx's "Undeliverable"
    if (f.contains("code")) {                            // null: Telnyx's error without a code
      if (!f["code"].is_string() && !f["code"].is_null()) return "code must be text or null";
      code = f["code"].is_string() ? f["code"].get<std::string>() : "";
    }
    std::string from, to;
    for (auto [field, value] : {std::pair{"from", &from}, std::pair{"to", &to}}) {
      if (!f.contains(field)) continue;
      if (!f[field].is_string() || f[field].get<std::string>().empty())
        return fmt::format("{} must be a phone number", field);
      *value = f[field];
    }
    std::string window = f.value("window", "account");
    if (window != "account" && window != "scoped") return "window must be account or scoped";
    if (window == "scoped" && from.empty() && to.empty()) return "a scoped window needs from or to";
    send_faults_.push_back({{mode, code, reset, from, to, window == "scoped"}, count});
    return std::nullopt;
  }
  if (kind == "opt_out_handling") {  // Telnyx's handling of this subscriber's stop words
    auto handling = parseOptOutHandling(f.value("handling", ""));
    if (!handling) return "handling must be off, profile or account";
    if (!f.contains("subscriber") || !f["subscriber"].is_string())
      return "subscriber is required: the handling applies to that subscriber's texts only";
    opt_out_handling_for_[f["subscriber"].get<std::string>()] = *handling;
    return std::nullopt;
  }
  if (kind == "receipt") {
    std::string status = f.value("status", "");
    if (status != "delivery_failed" && status != "sending_failed" && status != "expired" &&
        status != "delivery_unconfirmed") {
      return "status must be delivery_failed, sending_failed, expired or delivery_unconfirmed";
    }
    if (!f.contains("to") || !f["to"].is_string()) return "to is required";
    receipt_faults_[f["to"]] = {status, f.value("code", "30003")};
    return std::nullopt;
  }
  // Lookups of `number` report a Telnyx line type: "landline" is Telnyx's "fixed line";
  // "line_type" takes any of Telnyx's words as `type` (toll free, pager, …).
  if (kind == "landline" || kind == "voip" || kind == "line_type") {
    if (!f.contains("number") || !f["number"].is_string()) return "number is required";
    std::string type = kind == "landline" ? "fixed line" : kind;
    if (kind == "line_type") {  // a null type is kept as "" and answered null
      if (!f.contains("type") || !(f["type"].is_string() || f["type"].is_null()))
        return "type is required (text or null)";
      type = f["type"].is_string() ? f["type"].get<std::string>() : "";
    }
    line_types_[f["number"]] = type;
    return std::nullopt;
  }
  // Telnyx's queue for one sending number: its sends answer this wait_seconds.
  if (kind == "queue") {
    if (!f.contains("number") || !f["number"].is_string()) return "number is required";
    if (!f.contains("wait_seconds") || !f["wait_seconds"].is_number() ||
        f["wait_seconds"].get<double>() < 0 || f["wait_seconds"].get<double>() > 14400) {
      return "wait_seconds must be 0 to 14400";
    }
    queue_waits_[f["number"]] = f["wait_seconds"].get<double>();
    return std::nullopt;
  }
  // The next `count` orders answer pending and settle, when next read, to `settle`.
  if (kind == "order" && f.value("mode", "") == "pending") {
    std::string settle = f.value("settle", "success");
    if (settle != "success" && settle != "failure" && settle != "pending")
      return "settle must be success, failure or pending";
    int count = f.value("count", 1);
    if (count < 1) return "count must be at least 1";
    pending_order_faults_.insert(pending_order_faults_.end(), static_cast<size_t>(count), settle);
    return std::nullopt;
  }
  // A release answered 404 while the number stays held (a carrier's stale answer).
  if (kind == "release" && f.value("mode", "") == "not_found") {
    int count = f.value("count", 1);
    if (count < 1) return "count must be at least 1";
    counted_faults_["release_404"] += count;
    return std::nullopt;
  }
  // A search answered 429, or with a best-effort number outside the area code asked for.
  if (kind == "search" &&
      (f.value("mode", "") == "throttle" || f.value("mode", "") == "best_effort")) {
    int count = f.value("count", 1);
    if (count < 1) return "count must be at least 1";
    counted_faults_[f["mode"] == "throttle" ? "search_429" : "search_best_effort"] += count;
    return std::nullopt;
  }
  if (kind == "search" || kind == "order" || kind == "release" || kind == "listing") {
    int count = f.value("count", 1);
    if (count < 1) return "count must be at least 1";
    counted_faults_[kind] += count;
    return std::nullopt;
  }
  return "unknown kind";
}

void SimState::clearFaults() {
  std::lock_guard lock(mutex_);
  send_faults_.clear();
  window_opens_ = {};
  scoped_windows_.clear();
  opt_out_handling_for_.clear();  // the rules made stay, as Telnyx keeps them
  counted_faults_.clear();
  receipt_faults_.clear();
  line_types_.clear();
  queue_waits_.clear();
  pending_order_faults_.clear();
}

namespace {

bool meets(const SendFault& fault, const std::string& from, const std::string& to) {
  return (fault.from.empty() || fault.from == from) && (fault.to.empty() || fault.to == to);
}

}  // namespace

std::optional<SendFault> SimState::takeSendFault(const std::string& from, const std::string& to) {
  std::lock_guard lock(mutex_);
  auto it = std::find_if(send_faults_.begin(), send_faults_.end(),
                         [&](const auto& entry) { return meets(entry.first, from, to); });
  if (it == send_faults_.end()) return std::nullopt;
  SendFault fault = it->first;
  if (--it->second == 0) send_faults_.erase(it);
  return fault;
}

void SimState::shutRateWindow(const SendFault& throttle) {
  std::lock_guard lock(mutex_);
  auto opens = std::chrono::steady_clock::now() + std::chrono::seconds(throttle.reset_seconds);
  if (throttle.scoped_window)
    scoped_windows_.emplace_back(throttle, opens);
  else
    window_opens_ = opens;
}

int SimState::windowShutFor(const std::string& from, const std::string& to) const {
  std::lock_guard lock(mutex_);
  auto opens = window_opens_;
  for (const auto& [throttle, scoped_opens] : scoped_windows_) {
    if (meets(throttle, from, to)) opens = std::max(opens, scoped_opens);
  }
  auto left = opens - std::chrono::steady_clock::now();
  if (left <= std::chrono::steady_clock::duration::zero()) return 0;
  // Whole seconds, rounded up: "0" would invite a send the window still refuses.
  return static_cast<int>(std::chrono::ceil<std::chrono::seconds>(left).count());
}

bool SimState::takeCountedFault(const std::string& kind) {
  std::lock_guard lock(mutex_);
  auto it = counted_faults_.find(kind);
  if (it == counted_faults_.end() || it->second == 0) return false;
  it->second--;
  return true;
}

std::optional<ReceiptFault> SimState::receiptFaultFor(const std::string& to) const {
  std::lock_guard lock(mutex_);
  auto it = receipt_faults_.find(to);
  if (it == receipt_faults_.end()) return std::nullopt;
  return it->second;
}

double SimState::queueWaitOf(const std::string& from) const {
  std::lock_guard lock(mutex_);
  auto it = queue_waits_.find(from);
  return it == queue_waits_.end() ? 0.0 : it->second;
}

std::string SimState::lineTypeOf(const std::string& number) const {
  std::lock_guard lock(mutex_);
  auto it = line_types_.find(number);
  return it == line_types_.end() ? "mobile" : it->second;
}

namespace {

// Telnyx's id for a number record: a numeric string (IntId, e.g. '1293384261075731499').
std::string numericId() {
  std::string bytes = crypto::randomBytes(8);
  unsigned long long value = 0;
  for (char byte : bytes) value = (value << 8) | static_cast<unsigned char>(byte);
  return fmt::format("1{:018}", value % 1'000'000'000'000'000'000ULL);
}

std::string digitsOf(const std::string& number) {
  std::string digits;
  std::copy_if(number.begin(), number.end(), std::back_inserter(digits),
               [](char c) { return c >= '0' && c <= '9'; });
  return digits;
}

}  // namespace

std::optional<SimOrder> SimState::placeOrder(const std::string& number,
                                             const std::string& reference,
                                             const std::string& messaging_profile_id) {
  if (!inInventory(number)) return std::nullopt;
  std::lock_guard lock(mutex_);
  for (const auto& record : numbers_) {
    if (record.number == number &&
        (record.status == "active" || record.status == "purchase-pending"))
      return std::nullopt;
  }
  SimOrder order{crypto::uuid4(),      number,    reference, crypto::uuid4(),
                 messaging_profile_id, "success", ""};
  SimNumber record{numericId(), number, "active", messaging_profile_id,
                   formatIso(std::chrono::system_clock::now())};
  if (!pending_order_faults_.empty()) {
    order.status = "pending";
    order.settles_to = pending_order_faults_.front();
    pending_order_faults_.erase(pending_order_faults_.begin());
    record.status = "purchase-pending";
  }
  numbers_.push_back(record);
  orders_.push_back(order);
  return order;
}

std::optional<SimOrder> SimState::findOrder(const std::string& id, const std::string& reference) {
  std::lock_guard lock(mutex_);
  for (auto it = orders_.rbegin(); it != orders_.rend(); ++it) {
    if (id.empty() ? it->reference != reference : it->id != id) continue;
    if (it->status == "pending" && it->settles_to != "pending") {
      it->status = it->settles_to;
      for (auto& record : numbers_) {
        if (record.number == it->number && record.status == "purchase-pending")
          record.status = it->status == "success" ? "active" : "purchase-failed";
      }
    }
    return *it;
  }
  return std::nullopt;
}

const SimNumber* SimState::heldRecord(const std::string& number) const {
  for (const auto& record : numbers_) {
    if (record.number == number && record.status == "active") return &record;
  }
  return nullptr;
}

std::optional<SimNumber> SimState::heldNumber(const std::string& number) const {
  std::lock_guard lock(mutex_);
  const SimNumber* held = heldRecord(number);
  return held ? std::optional<SimNumber>(*held) : std::nullopt;
}

std::optional<SimNumber> SimState::heldNumberById(const std::string& id) const {
  std::lock_guard lock(mutex_);
  for (const auto& record : numbers_) {
    if (record.id == id && record.status == "active") return record;
  }
  return std::nullopt;
}

bool SimState::releaseById(const std::string& id) {
  std::lock_guard lock(mutex_);
  for (auto& record : numbers_) {
    if (record.id != id || record.status != "active") continue;
    record.status = "deleted";
    return true;
  }
  return false;
}

bool SimState::isOrdered(const std::string& number) const {
  std::lock_guard lock(mutex_);
  return std::any_of(numbers_.begin(), numbers_.end(), [&](const SimNumber& record) {
    return record.number == number &&
           (record.status == "active" || record.status == "purchase-pending");
  });
}

std::vector<SimNumber> SimState::numbersMatching(const std::string& digits) const {
  std::lock_guard lock(mutex_);
  std::vector<SimNumber> found;
  for (auto record = numbers_.rbegin(); record != numbers_.rend(); ++record) {  // newest first
    if (digitsOf(record->number).find(digits) != std::string::npos) found.push_back(*record);
  }
  return found;
}

std::string SimState::profileOf(const std::string& number, const std::string& fallback) const {
  const SimNumber* held = heldRecord(number);
  return held && !held->messaging_profile_id.empty() ? held->messaging_profile_id : fallback;
}

std::optional<std::string> SimState::autoReplyTo(const std::string& subscriber,
                                                 const std::string& number,
                                                 const std::string& text) {
  std::lock_guard lock(mutex_);
  auto scoped = opt_out_handling_for_.find(subscriber);
  OptOutHandling handling =
      scoped == opt_out_handling_for_.end() ? opt_out_handling_ : scoped->second;
  return block_rules_.onInbound(handling, subscriber, number,
                                profileOf(number, kSimulatorMessagingProfileId), text);
}

bool SimState::blockedByRule(const std::string& from, const std::string& to,
                             const std::string& send_profile) const {
  std::lock_guard lock(mutex_);
  return block_rules_.blocks(
      to, profileOf(from, send_profile.empty() ? kSimulatorMessagingProfileId : send_profile));
}

}  // namespace smsgw::sim
