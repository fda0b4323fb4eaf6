#include "services/compliance/platform_texts.h"

#include <soci/soci.h>

#include "db/outbox.h"
#include "domain/ids.h"
#include "domain/sms_segments.h"
#include "services/messaging/lifecycle.h"
#include "topics/catalogue.h"
#include "topics/event_writer.h"
#include "topics/records.h"

namespace smsgw::compliance {

std::string queuePlatformText(soci::session& sql, const PlatformText& text) {
  std::string id = newId("msg");
  int parts = countSegments(text.body).parts;
  std::string keyword = text.auto_reply_keyword.value_or("");
  soci::indicator keyword_ind = text.auto_reply_keyword ? soci::i_ok : soci::i_null;
  const auto& move = messaging::transitionOf(messaging::Move::Accept);
  std::string status(messaging::toString(move.to));
  sql << "INSERT INTO messages (id, account_id, direction, from_number, to_number, body, status, "
         "segment_count, mode, auto_reply_keyword, cost_cents) VALUES (:id, :a, 'OUTBOUND', :f, "
         ":t, :b, :s, :parts, :m, :k, 0)",
      soci::use(id), soci::use(text.account_id), soci::use(text.from), soci::use(text.to),
      soci::use(text.body), soci::use(status), soci::use(parts), soci::use(text.mode),
      soci::use(keyword, keyword_ind);
  topics::raiseEvent(sql, {text.account_id, std::string(move.event), text.mode == "LIVE",
                           messaging::queuedEvent({id, text.from, text.to})});
  topics::OutboundSms record{id, text.account_id, text.from, text.mode};
  db::enqueueOutbox(sql, std::string(topics::kSmsOutbound.name), text.from, record.toJson().dump());
  return id;
}

}  // namespace smsgw::compliance
