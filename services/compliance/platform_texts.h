#pragma once
// Texts the platform sends on an account's behalf and never charges: the automatic replies to
// STOP, START and HELP, and double opt-in requests. Each is queued like a customer's message
// (the message, `message.queued` and its sms.outbound record) in the caller's transaction.

#include <soci/session.h>

#include <optional>
#include <string>

#include "domain/clock.h"

namespace smsgw::compliance {

struct PlatformText {
  std::string account_id;
  std::string mode;  // LIVE or TEST
  std::string from;  // the account's number
  std::string to;    // the subscriber
  std::string body;
  std::optional<std::string> auto_reply_keyword;  // STOP, START or HELP
};

// Queued as of `now`; returns the message id.
std::string queuePlatformText(soci::session& sql, const PlatformText& text, TimePoint now);

}  // namespace smsgw::compliance
