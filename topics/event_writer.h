#pragma once
// Raises an event: one row in `events` and one outbox record on the `events` topic, both in
// the caller's transaction. The event id is fixed here, once, and kept on every retry and replay.

#include <soci/session.h>

#include <nlohmann/json.hpp>
#include <string>

namespace smsgw::topics {

struct EventDraft {
  std::string account_id;
  std::string type;
  bool livemode = true;
  nlohmann::json data;
};

// Returns the event id.
std::string raiseEvent(soci::session& sql, const EventDraft& draft);

// The record raiseEvent writes, with its id fixed, for a SQL function that raises the event
// itself (the SQL function raise_event fills in `created`).
struct PreparedEvent {
  std::string id;
  std::string record_json;
};
PreparedEvent prepareEvent(const EventDraft& draft);

}  // namespace smsgw::topics
