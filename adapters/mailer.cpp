#include "adapters/mailer.h"

#include <spdlog/spdlog.h>

namespace smsgw {

void LogMailer::send(const OutgoingEmail& email) {
  spdlog::info("email to {}: {} | {}", email.to, email.subject, email.body);
}

}  // namespace smsgw
