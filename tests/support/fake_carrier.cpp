#include "tests/support/fake_carrier.h"

namespace smsgw::testing {

NumberOperation operation(NumberOperation::Kind kind, std::string code) {
  NumberOperation op;
  op.kind = kind;
  op.error_detail = code.empty() ? "" : "scripted";
  op.error_code = std::move(code);
  return op;
}

bool FakeCarrier::holds(const std::string& number) const {
  std::lock_guard lock(mutex_);
  return held_.count(number) > 0;
}

void FakeCarrier::sell(const std::string& number) {
  std::lock_guard lock(mutex_);
  held_.insert(number);
}

CarrierSendResult FakeCarrier::sendMessage(const std::string& from, const std::string& to,
                                           const std::string& text) {
  SentText sent{from, to, text};
  size_t count = 0;
  {
    std::lock_guard lock(mutex_);
    sent_.push_back(sent);
    count = sent_.size();
  }
  if (on_send) return on_send(sent);
  return acceptedAs("fake_" + std::to_string(count) + "_" + to);
}

CarrierSendResult FakeCarrier::acceptedAs(const std::string& carrier_message_id, int parts) {
  CarrierSendResult accepted;
  accepted.kind = CarrierSendResult::Kind::Accepted;
  accepted.carrier_message_id = carrier_message_id;
  accepted.parts = parts;
  return accepted;
}

std::vector<FakeCarrier::SentText> FakeCarrier::sent() const {
  std::lock_guard lock(mutex_);
  return sent_;
}

LookupResult FakeCarrier::lookupNumber(const std::string&) {
  return {true, LineType::Mobile};
}

NumberSearchResult FakeCarrier::searchNumbers(const std::string&, int) {
  return {true, {}, ""};
}

NumberOperation FakeCarrier::orderNumber(const std::string& number, const std::string& reference) {
  ++orders;
  {
    std::lock_guard lock(mutex_);
    references_[reference] = number;
  }
  if (on_order) return on_order(number);
  std::lock_guard lock(mutex_);
  if (!held_.insert(number).second) return operation(NumberOperation::Kind::Refused, "85001");
  return operation(NumberOperation::Kind::Done);
}

NumberOperation FakeCarrier::orderStatus(const std::string& reference) {
  if (on_order_status) return on_order_status(reference);
  std::string number;
  {
    std::lock_guard lock(mutex_);
    auto it = references_.find(reference);
    if (it == references_.end()) return operation(NumberOperation::Kind::NotHeld);
    number = it->second;
  }
  return operation(numberHolding(number) == NumberHolding::Held ? NumberOperation::Kind::Done
                                                                : NumberOperation::Kind::NotHeld);
}

NumberOperation FakeCarrier::releaseNumber(const std::string& number, const std::string& id) {
  ++releases;
  {
    std::lock_guard lock(mutex_);
    release_ids_.push_back(id);
  }
  if (on_release) return on_release(number);
  std::lock_guard lock(mutex_);
  return operation(held_.erase(number) ? NumberOperation::Kind::Done
                                       : NumberOperation::Kind::NotHeld);
}

NumberHolding FakeCarrier::numberHolding(const std::string& number) {
  if (on_holding) return on_holding(number);
  return holds(number) ? NumberHolding::Held : NumberHolding::NotHeld;
}

std::string FakeCarrier::carrierNumberId(const std::string& number) {
  return holds(number) ? "fake-id-" + number : "";
}

std::vector<std::string> FakeCarrier::release_ids() const {
  std::lock_guard lock(mutex_);
  return release_ids_;
}

}  // namespace smsgw::testing
