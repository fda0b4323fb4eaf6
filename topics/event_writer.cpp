#include "topics/event_writer.h"

#include <soci/soci.h>

#include "domain/crypto.h"
#include "topics/catalogue.h"
#include "topics/records.h"

namespace smsgw::topics {

std::string raiseEvent(soci::session& sql, const EventDraft& draft) {
  EventRecord record{crypto::uuid4(), draft.type, "", draft.account_id, draft.livemode, draft.data};
  std::string record_json = record.toJson().dump();
  std::string topic(kEvents.name);
  int livemode = draft.livemode ? 1 : 0;
  // One round trip for the event row and its outbox record (the SQL function raise_event):
  // the record's `created` is the row's, filled in by PostgreSQL.
  sql << "SELECT raise_event(:id::uuid, :account, :type, :livemode::int::boolean, "
         ":record::jsonb, :topic)",
      soci::use(record.id), soci::use(draft.account_id), soci::use(draft.type), soci::use(livemode),
      soci::use(record_json), soci::use(topic);
  return record.id;
}

}  // namespace smsgw::topics
