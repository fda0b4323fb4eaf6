#include "topics/event_writer.h"

#include <soci/soci.h>

#include "db/outbox.h"
#include "domain/crypto.h"
#include "topics/catalogue.h"
#include "topics/records.h"

namespace smsgw::topics {

std::string raiseEvent(soci::session& sql, const EventDraft& draft) {
  EventRecord record{crypto::uuid4(), draft.type, "", draft.account_id, draft.livemode, draft.data};
  std::string data = draft.data.dump();
  int livemode = draft.livemode ? 1 : 0;
  sql << "INSERT INTO events (id, account_id, type, livemode, data) "
         "VALUES (:id::uuid, :account, :type, :livemode::int::boolean, :data::jsonb) RETURNING "
         "iso_ts(created_at)",
      soci::use(record.id), soci::use(draft.account_id), soci::use(draft.type), soci::use(livemode),
      soci::use(data), soci::into(record.created);
  db::enqueueOutbox(sql, std::string(kEvents.name), draft.account_id, record.toJson().dump());
  return record.id;
}

}  // namespace smsgw::topics
