#pragma once
// The SQL function record_carrier_acceptance (db/functions): the carrier took a QUEUED message;
// it becomes SENDING with the carrier's id, its charge settles on the carrier's part count, and
// message.sent is raised, in one round trip (procedure.h says how it is called).

#include <soci/session.h>

#include <optional>
#include <string>

#include "db/procedures/procedure.h"
#include "domain/clock.h"

namespace smsgw::db {

struct CarrierAcceptance {
  std::string message_id;
  std::string status, event_type;  // from the lifecycle's table (CarrierAccepted)
  std::string carrier_message_id;
  int parts = 0;                   // as the carrier counted them
  long long adjustment_cents = 0;  // charged minus what the parts cost: positive gives back
  std::string charge_reference, adjustment_description;
  std::string event_id, event_record;  // message.sent, prepared (topics/event_writer.h)
  std::string events_topic;
  TimePoint now;
  std::string request_id;  // empty: none
};

struct AcceptanceRecorded {
  long long cost_cents = 0;   // the charge that stands
  bool receipt_held = false;  // a receipt came first and waits to be applied
};

extern const Procedure kRecordCarrierAcceptance;

// nullopt when the message was no longer QUEUED (a replay: nothing changed).
std::optional<AcceptanceRecorded> recordCarrierAcceptance(soci::session& sql,
                                                          const CarrierAcceptance& acceptance);

}  // namespace smsgw::db
