#pragma once
// A real HTTP endpoint for tests (Pistache on a free port) that keeps every request it gets.
// Thread-safe.

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace smsgw::testing {

struct ReceivedRequest {
  std::map<std::string, std::string> headers;  // lower-cased names
  std::string body;
};

class WebhookReceiver {
 public:
  WebhookReceiver();
  ~WebhookReceiver();
  std::string url() const;
  // Waits until at least `count` requests arrived; returns all received so far.
  std::vector<ReceivedRequest> waitFor(size_t count, std::chrono::seconds timeout);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace smsgw::testing
