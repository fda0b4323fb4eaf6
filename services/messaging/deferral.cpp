#include "services/messaging/deferral.h"

#include <soci/soci.h>

#include "services/messaging/still_queued.h"

namespace smsgw::messaging {

void deferHandoff(soci::session& sql, const std::string& message_id, TimePoint until) {
  std::string at = formatIso(until);
  // The sweep sends what waits for a slot (send_at after created_at): a message deferred within
  // its own creation millisecond would be left to no one, hence the greatest with created_at.
  sql << std::string(
             "UPDATE messages SET send_at = greatest(:until::timestamptz, send_at, created_at + "
             "interval '1 millisecond') WHERE id = :id AND mode = 'LIVE' AND "
             "handoff_started_at IS NULL AND ") +
             kStillQueued,
      soci::use(at, "until"), soci::use(message_id, "id");
}

void paceBehindCarrierQueue(soci::session& sql, const std::string& from, TimePoint until) {
  std::string at = formatIso(until);
  sql << "UPDATE phone_numbers SET next_send_at = greatest(next_send_at, :until::timestamptz) "
         "WHERE phone_number = :from AND status = 'ACTIVE'",
      soci::use(at, "until"), soci::use(from, "from");
}

}  // namespace smsgw::messaging
