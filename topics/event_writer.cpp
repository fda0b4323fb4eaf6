#include "topics/event_writer.h"

#include <soci/soci.h>

#include "adapters/log.h"
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
  std::string topic(kEvents.name);
  int livemode = draft.livemode ? 1 : 0;
  // One round trip for the event row and its outbox record (the SQL function raise_event):
  // the record's `created` is the row's, filled in by PostgreSQL.
  sql << "SELECT raise_event(:id::uuid, :account, :type, :livemode::int::boolean, "
         ":record::jsonb, :topic, NULLIF(:request, ''))",
      soci::use(event.id), soci::use(draft.account_id), soci::use(draft.type), soci::use(livemode),
      soci::use(event.record_json), soci::use(topic), soci::use(RequestScope::current());
  return event.id;
}

}  // namespace smsgw::topics
