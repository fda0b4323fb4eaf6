#pragma once
// Email the platform sends to account owners (allowance decisions, webhook failure streaks,
// sign-in links and notices). The embedded default does not send: it logs what it would send
// and, given a folder (MAIL_DROP_DIR, which ops/up and ops/test set), writes each email there as
// a file, the local stack's inbox; production wires a provider behind Mailer. Implementations
// are thread-safe.

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
  // `drop_dir` empty: the whole email goes to the log. Otherwise the log names the recipient,
  // the subject and the file, and the body (which may hold a sign-in link) stays in the file.
  explicit LogMailer(std::string drop_dir = "");
  void send(const OutgoingEmail& email) override;

 private:
  std::string drop_dir_;
};

}  // namespace smsgw
