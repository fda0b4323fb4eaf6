#include "db/procedures/raise_event.h"

#include <soci/soci.h>

namespace smsgw::db {

const Procedure kRaiseEvent{"raise_event",
                            {{"p_id", "uuid"},
                             {"p_account", "text"},
                             {"p_type", "text"},
                             {"p_livemode", "boolean", "int::boolean"},
                             {"p_record", "jsonb"},
                             {"p_topic", "text"},
                             {"p_request_id", "text"}},
                            "void"};

void raiseEventRow(soci::session& sql, const EventRow& event) {
  int livemode = event.livemode ? 1 : 0;
  soci::indicator request_ind = event.request_id.empty() ? soci::i_null : soci::i_ok;
  sql << kRaiseEvent.callText("1"), soci::use(event.event_id, "p_id"),
      soci::use(event.account_id, "p_account"), soci::use(event.type, "p_type"),
      soci::use(livemode, "p_livemode"), soci::use(event.record, "p_record"),
      soci::use(event.topic, "p_topic"), soci::use(event.request_id, request_ind, "p_request_id");
}

}  // namespace smsgw::db
