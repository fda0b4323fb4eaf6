#include "services/messaging/queued_messages.h"

#include <soci/soci.h>

#include "db/outbox.h"
#include "services/messaging/lifecycle.h"
#include "topics/catalogue.h"
#include "topics/event_writer.h"
#include "topics/records.h"

namespace smsgw::messaging {

void queueMessage(soci::session& sql, const QueuedMessage& message) {
  const auto& move = transitionOf(Move::Accept);
  std::string status(toString(move.to));
  std::string at = formatIso(message.created_at);
  std::string body = message.body.value_or(""), keyword = message.auto_reply_keyword.value_or("");
  soci::indicator body_ind = message.body ? soci::i_ok : soci::i_null;
  soci::indicator keyword_ind = message.auto_reply_keyword ? soci::i_ok : soci::i_null;
  int verification = message.is_verification ? 1 : 0;
  sql << "INSERT INTO messages (id, account_id, direction, from_number, to_number, body, status, "
         "segment_count, mode, cost_cents, part_price_cents, auto_reply_keyword, "
         "is_verification, created_at, updated_at) VALUES (:id, :account, 'OUTBOUND', :from, :to, "
         ":body, :status, :parts, :mode, :cost, :part_price, :keyword, "
         ":verification::int::boolean, :at::timestamptz, :at::timestamptz)",
      soci::use(message.id, "id"), soci::use(message.account_id, "account"),
      soci::use(message.from, "from"), soci::use(message.to, "to"),
      soci::use(body, body_ind, "body"), soci::use(status, "status"),
      soci::use(message.parts, "parts"), soci::use(message.mode, "mode"),
      soci::use(message.cost_cents, "cost"), soci::use(message.part_price_cents, "part_price"),
      soci::use(keyword, keyword_ind, "keyword"), soci::use(verification, "verification"),
      soci::use(at, "at");
  topics::raiseEvent(sql, {message.account_id, std::string(move.event), message.mode == "LIVE",
                           queuedEvent({message.id, message.from, message.to})});
  topics::OutboundSms record{message.id, message.account_id, message.from, message.mode};
  db::enqueueOutbox(sql, std::string(topics::kSmsOutbound.name), message.from,
                    record.toJson().dump());
}

}  // namespace smsgw::messaging
