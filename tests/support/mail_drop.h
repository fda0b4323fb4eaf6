#pragma once
// The local stack's inbox (MAIL_DROP_DIR, adapters/mailer.h): the emails the stack's processes
// sent to owners, one file each, read as a test waits for one to arrive.

#include <optional>
#include <string>
#include <vector>

namespace smsgw::testing {

struct DroppedEmail {
  std::string to;
  std::string subject;
  std::string body;
};

// Every email to `to`, oldest first.
std::vector<DroppedEmail> emailsTo(const std::string& to);

// The token of the newest link to the dashboard page `page` (reset, unlock, email) mailed to
// `to`, waiting up to ten seconds for one to arrive; "" when none came.
std::string linkTokenMailedTo(const std::string& to, const std::string& page);

}  // namespace smsgw::testing
