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
  // One statement for the event row and its outbox record (a round trip less on every
  // event): the record's `created` is the row's, filled in by PostgreSQL.
  sql << "WITH event AS (INSERT INTO events (id, account_id, type, livemode, data) "
         "VALUES (:id::uuid, :account, :type, :livemode::int::boolean, "
         "(:record::jsonb)->'data') RETURNING iso_ts(created_at) AS created) "
         "INSERT INTO outbox (topic, record_key, payload) SELECT :topic, :key, "
         "jsonb_set(:record2::jsonb, '{created}', to_jsonb(event.created))::text FROM event",
      soci::use(record.id), soci::use(draft.account_id), soci::use(draft.type), soci::use(livemode),
      soci::use(record_json), soci::use(topic), soci::use(draft.account_id), soci::use(record_json);
  return record.id;
}

}  // namespace smsgw::topics
