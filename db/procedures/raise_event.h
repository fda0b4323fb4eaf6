#pragma once
// The SQL function raise_event (db/functions): an event row and its outbox record in one round
// trip; the record's `created` is the row's, filled in by PostgreSQL. topics/event_writer.h
// builds what it is given (procedure.h says how it is called).

#include <soci/session.h>

#include <string>

#include "db/procedures/procedure.h"

namespace smsgw::db {

struct EventRow {
  std::string event_id;  // a UUIDv7
  std::string account_id, type;
  bool livemode = true;
  std::string record;  // the whole topic record, JSON; the row keeps its `data`
  std::string topic;
  std::string request_id;  // empty: none
};

extern const Procedure kRaiseEvent;

void raiseEventRow(soci::session& sql, const EventRow& event);

}  // namespace smsgw::db
