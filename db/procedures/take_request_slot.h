#pragma once
// The SQL function take_request_slot (db/functions): takes one request's slot for a key of a
// limit every API instance keeps together, or refuses it (domain/request_rate.h says the rule,
// procedure.h how it is called).

#include <soci/session.h>

#include <chrono>
#include <string>

#include "db/procedures/procedure.h"

namespace smsgw::db {

struct RequestSlotAsk {
  std::string key;  // "<limit's name>:<account id or address>"
  std::chrono::microseconds interval{};
  std::chrono::microseconds window{};
  long long now_us = 0;  // since the epoch
};

struct RequestSlot {
  bool allowed = false;
  long long next_arrival_us = 0;  // after this request (allowed) or as it stands (refused)
};

extern const Procedure kTakeRequestSlot;

RequestSlot takeRequestSlot(soci::session& sql, const RequestSlotAsk& ask);

}  // namespace smsgw::db
