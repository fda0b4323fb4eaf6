#include "services/messaging/inbound_messages.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include "db/ledger.h"
#include "domain/ids.h"
#include "services/messaging/lifecycle.h"
#include "topics/event_writer.h"

namespace smsgw::messaging {

std::optional<std::string> storeInbound(soci::session& sql, const InboundText& text) {
  std::string id = newId("msg"), inserted;
  std::string status(toString(transitionOf(Move::Receive).to));
  int capped_flag = text.capped ? 1 : 0;
  soci::indicator body_ind = text.capped ? soci::i_null : soci::i_ok;
  sql << "INSERT INTO messages (id, account_id, direction, from_number, to_number, body, "
         "body_purged, status, segment_count, mode, carrier_message_id, inbound_capped) "
         "VALUES (:id, :a, 'INBOUND', :f, :t, :b, :capped::int::boolean, :s, :parts, "
         "'LIVE', :cid, :capped2::int::boolean) "
         "ON CONFLICT (carrier_message_id) DO NOTHING RETURNING id",
      soci::use(id), soci::use(text.account_id), soci::use(text.from), soci::use(text.to),
      soci::use(text.body, body_ind), soci::use(capped_flag), soci::use(status),
      soci::use(text.parts), soci::use(text.carrier_message_id), soci::use(capped_flag),
      soci::into(inserted);
  if (!sql.got_data()) return std::nullopt;
  return id;
}

int inboundReceivedInWindow(soci::session& sql, const std::string& account_id, TimePoint now) {
  int received = 0;
  std::string at = formatIso(now);
  sql << "SELECT count(*) FROM messages WHERE account_id = :a AND direction = 'INBOUND' "
         "AND mode = 'LIVE' AND NOT inbound_capped AND created_at > :now::timestamptz - "
         "interval '24 hours'",
      soci::use(account_id, "a"), soci::use(at, "now"), soci::into(received);
  return received;
}

long long chargeInbound(soci::session& sql, const std::string& account_id,
                        const std::string& message_id, int parts) {
  int price = 0;
  sql << "SELECT cents FROM prices WHERE code = 'sms_inbound_part'", soci::into(price);
  long long cost = static_cast<long long>(price) * parts;
  if (cost <= 0) return 0;
  auto posted = db::postLedgerEntry(sql, {account_id, -cost, "sms_inbound", message_id,
                                          "Inbound SMS, " + std::to_string(parts) + " part(s)"});
  if (posted.outcome == db::LedgerOutcome::InsufficientBalance) {
    spdlog::warn("inbound {} to {} left uncharged: balance too low", message_id, account_id);
    return 0;
  }
  sql << "UPDATE messages SET cost_cents = :c WHERE id = :id", soci::use(cost),
      soci::use(message_id);
  return cost;
}

void announceInbound(soci::session& sql, const std::string& message_id, const InboundText& text,
                     const std::string& keyword_action, long long cost_cents) {
  sql << "UPDATE messages SET keyword_action = :k WHERE id = :id", soci::use(keyword_action),
      soci::use(message_id);
  topics::raiseEvent(sql, {text.account_id, std::string(transitionOf(Move::Receive).event), true,
                           receivedEvent({message_id, text.from, text.to}, text.body,
                                         keyword_action, text.parts, cost_cents)});
}

}  // namespace smsgw::messaging
