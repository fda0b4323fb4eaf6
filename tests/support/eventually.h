#pragma once
// Polling for what the pipeline does asynchronously (Kafka hops, carrier receipts).

#include <chrono>
#include <functional>
#include <string>
#include <thread>

namespace smsgw::testing {

// Whether `condition` holds within `timeout`, checked every 100 ms.
inline bool eventually(const std::function<bool()>& condition,
                       std::chrono::seconds timeout = std::chrono::seconds(20)) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return condition();
}

// An E.164 number as a query-string value.
inline std::string encodedNumber(const std::string& e164) {
  return "%2B" + e164.substr(1);
}

}  // namespace smsgw::testing
