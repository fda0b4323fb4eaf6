#include "topics/event_writer.h"

#include "adapters/log.h"
#include "db/procedures/raise_event.h"
#include "domain/crypto.h"
#include "topics/catalogue.h"
#include "topics/records.h"

namespace smsgw::topics {

PreparedEvent prepareEvent(const EventDraft& draft) {
  EventRecord record{crypto::uuid7(), draft.type, "", draft.account_id, draft.livemode, draft.data};
  return {record.id, record.toJson().dump()};
}

std::string raiseEvent(soci::session& sql, const EventDraft& draft) {
  PreparedEvent event = prepareEvent(draft);
  // One round trip for the event row and its outbox record: the record's `created` is the
  // row's, filled in by PostgreSQL.
  db::raiseEventRow(sql, {.event_id = event.id,
                          .account_id = draft.account_id,
                          .type = draft.type,
                          .livemode = draft.livemode,
                          .record = event.record_json,
                          .topic = std::string(kEvents.name),
                          .request_id = RequestScope::current()});
  return event.id;
}

}  // namespace smsgw::topics
