#pragma once
// The SQL function accept_outbound_message (db/functions): everything an accepted send
// writes, in one round trip, or the refusal that stops it (procedure.h says how it is called).

#include <soci/session.h>

#include <optional>
#include <string>

#include "db/procedures/procedure.h"
#include "domain/clock.h"

namespace smsgw::db {

struct OutboundAcceptance {
  std::string message_id;
  std::string account_id;
  std::string mode;  // TEST or LIVE
  std::string from, to, body;
  int parts = 0;
  long long cost_cents = 0;  // charged when LIVE
  int part_price_cents = 0;
  std::string body_sha256;
  std::optional<std::string> consent_type;  // unset when the check was skipped
  bool queue_again = false;                 // a new attempt of a message failed before the carrier
  int attempt = 1;
  std::string status, event_type;  // from the lifecycle's table (Accept, Requeue)
  std::string charge_reference, charge_description;
  int toll_free_parts_per_minute = 0, local_parts_per_minute = 0;  // the pacing
  std::string event_id, event_record;  // message.queued, prepared (topics/event_writer.h)
  std::string events_topic, outbound_topic, outbound_record;
  TimePoint now;
  std::string request_id;  // empty: none
};

enum class OutboundRefusal { InsufficientBalance, PhoneNumberNotOwned, AlreadyQueued };

struct OutboundAccepted {
  std::optional<OutboundRefusal> refusal;  // set: nothing may be kept (roll back)
  std::optional<std::string> send_at;      // LIVE: the pacing slot
  std::optional<std::string> rendered;     // a new message as the API shows it
};

extern const Procedure kAcceptOutboundMessage;

OutboundAccepted acceptOutboundMessage(soci::session& sql, const OutboundAcceptance& send);

}  // namespace smsgw::db
