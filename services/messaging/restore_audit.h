#pragma once
// After a database restore: what happened after the backup point that the restored database
// does not hold. Every change a customer can see raises an event, and every event goes to the
// events topic, which a database restore does not roll back. Read from the backup's time on and
// set against the database, the events list what the restore lost (an accepted send, a status,
// a text received), and which messages the restored database holds as QUEUED though they had
// already left: the sender would hand those to the carrier again.

#include <string>
#include <vector>

#include "db/database.h"
#include "domain/clock.h"

namespace smsgw::messaging {

// One event as the topic holds it.
struct SeenEvent {
  std::string id;  // the event's
  std::string type;
  std::string account_id;
  std::string created;
  std::string message_id;  // data.message_id of a message.* event; empty otherwise
  std::string record;      // the payload as the topic holds it
};

struct RestoreFindings {
  std::vector<SeenEvent> missing;     // not in the database
  std::vector<SeenEvent> sent_again;  // its message is QUEUED here, the event says it left
};

// Judges a batch of events against the database (one statement per batch).
RestoreFindings judgeAfterRestore(db::Database& db, const std::vector<SeenEvent>& events);

// Settles a message this database holds as QUEUED by the message.sent event (its payload as
// the topic holds it) that the lost database raised when the carrier took it: SENDING with the
// carrier's id, its charge on the carrier's parts, and the same event id and record, so the
// receivers that had it already set the repeat aside. Its receipt then comes through the
// reconciler's receipt recovery, which asks the carrier. False when the message is not QUEUED.
bool settleFromSentEvent(db::Database& db, const std::string& sent_event_record, TimePoint now);

// Settles a message this database holds as QUEUED by the message.failed event the lost
// database raised when it failed before the carrier took it (refused, an erased recipient,
// an interrupted hand-off): FAILED with the event's code, its charge refunded, and the same
// event id and record, as settleFromSentEvent. Without it the sender would try again a message
// whose customer was told it failed and was refunded. False when the message is not QUEUED.
bool settleFromFailedEvent(db::Database& db, const std::string& failed_event_record, TimePoint now);

// True for a message event that says the message had left the queue (sent, delivered, failed…).
bool saysMessageLeftTheQueue(const std::string& type);

}  // namespace smsgw::messaging
