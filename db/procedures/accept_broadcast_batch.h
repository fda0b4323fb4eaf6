#pragma once
// The SQL function accept_broadcast_batch (db/functions): one batch of a group broadcast in
// one round trip, or the refusal that writes nothing of it (procedure.h says how it is called).

#include <soci/session.h>

#include <optional>
#include <string>
#include <vector>

#include "db/procedures/procedure.h"
#include "domain/clock.h"

namespace smsgw::db {

struct BroadcastBatch {
  std::string broadcast_id;
  std::string account_id;
  std::string mode;  // TEST or LIVE
  std::string from, body;
  int parts = 0;
  int part_price_cents = 0;
  std::string body_sha256;
  std::string status, event_type;  // the members' status and event (the lifecycle's Accept)
  int toll_free_parts_per_minute = 0, local_parts_per_minute = 0;  // the pacing
  std::string events_topic, outbound_topic;
  // [{id, to, consent, charge_reference, charge_description, event_id, event, outbound}]
  std::string members;
  TimePoint now;
  std::string request_id;  // empty: none
};

enum class BatchRefusal { InsufficientBalance, PhoneNumberNotOwned };

// A member's message: this batch's, or an earlier attempt's.
struct BatchMessage {
  std::string to_number, message_id, status;
  std::optional<std::string> error_code;
};

struct BatchAccepted {
  std::optional<BatchRefusal> refusal;  // set: nothing of the batch may be kept (roll back)
  std::vector<BatchMessage> messages;
};

extern const Procedure kAcceptBroadcastBatch;

BatchAccepted acceptBroadcastBatch(soci::session& sql, const BroadcastBatch& batch);

}  // namespace smsgw::db
