#pragma once
// The SQL function apply_carrier_receipt (db/functions): a final receipt applied to its
// message under the carrier id's lock, with its event (procedure.h says how it is called).

#include <soci/session.h>

#include <optional>
#include <string>

#include "db/procedures/procedure.h"
#include "domain/clock.h"

namespace smsgw::db {

struct ReceiptApplication {
  std::string carrier_message_id;
  std::string next_status;                         // from the lifecycle's transition table
  std::optional<std::string> error_code;           // the carrier's, when it gave one
  std::string receipt;                             // the receipt record, kept if it came too early
  std::string event_id, event_type, event_record;  // prepared (topics/event_writer.h)
  std::string events_topic;
  TimePoint now;
  std::string request_id;  // empty: none
};

enum class ReceiptVerdict {
  Applied,    // the message took next_status; the fields below are set
  Unchanged,  // late or repeated: already final
  Held,       // no message has the carrier id yet: kept for the sender
};

struct ReceiptApplied {
  ReceiptVerdict verdict = ReceiptVerdict::Unchanged;
  std::string message_id, account_id, to_number;
  bool live = false;
  int send_attempt = 0;
  long long cost_cents = 0;
};

extern const Procedure kApplyCarrierReceipt;

ReceiptApplied applyCarrierReceipt(soci::session& sql, const ReceiptApplication& receipt);

}  // namespace smsgw::db
