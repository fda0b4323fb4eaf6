#pragma once
// A Mailer that keeps what it was asked to send, for tests. Thread-safe (the webhook
// dispatcher mails from its delivery threads).

#include <mutex>
#include <string>
#include <vector>

#include "adapters/mailer.h"

namespace smsgw::testing {

class RecordingMailer final : public Mailer {
 public:
  void send(const OutgoingEmail& email) override {
    std::lock_guard lock(mutex_);
    sent_.push_back(email);
  }
  std::vector<OutgoingEmail> sent() const {
    std::lock_guard lock(mutex_);
    return sent_;
  }
  // How many subjects contain `words`.
  size_t countAbout(const std::string& words) const {
    std::lock_guard lock(mutex_);
    size_t n = 0;
    for (const auto& email : sent_) n += email.subject.find(words) != std::string::npos;
    return n;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<OutgoingEmail> sent_;
};

}  // namespace smsgw::testing
