#pragma once
// Email the platform sends to account owners (allowance decisions, and later webhook failure
// streaks). The embedded default only logs what it would send; production wires a provider.
// Implementations are thread-safe.

#include <string>

namespace smsgw {

struct OutgoingEmail {
  std::string to;
  std::string subject;
  std::string body;
};

class Mailer {
 public:
  virtual ~Mailer() = default;
  virtual void send(const OutgoingEmail& email) = 0;
};

class LogMailer final : public Mailer {
 public:
  void send(const OutgoingEmail& email) override;
};

}  // namespace smsgw
