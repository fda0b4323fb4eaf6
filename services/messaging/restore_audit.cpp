#include "services/messaging/restore_audit.h"

#include <soci/soci.h>

#include <array>
#include <cctype>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string_view>

#include "db/procedures/raise_event.h"
#include "db/procedures/record_carrier_acceptance.h"
#include "services/messaging/charges.h"
#include "services/messaging/lifecycle.h"
#include "topics/catalogue.h"
#include "topics/records.h"

namespace smsgw::messaging {

bool saysMessageLeftTheQueue(const std::string& type) {
  static constexpr std::array<std::string_view, 5> kLeft = {"message.sending", "message.sent",
                                                            "message.delivered", "message.failed",
                                                            "message.undelivered"};
  for (std::string_view left : kLeft) {
    if (type == left) return true;
  }
  return false;
}

namespace {

// Event ids are UUIDs; an id that is not one cannot be in the table (and must not fail the cast).
bool looksLikeUuid(const std::string& id) {
  if (id.size() != 36) return false;
  for (size_t i = 0; i < id.size(); ++i) {
    bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? id[i] != '-' : !std::isxdigit(static_cast<unsigned char>(id[i]))) return false;
  }
  return true;
}

}  // namespace

RestoreFindings judgeAfterRestore(db::Database& db, const std::vector<SeenEvent>& events) {
  RestoreFindings findings;
  if (events.empty()) return findings;
  nlohmann::json rows = nlohmann::json::array();
  for (const SeenEvent& event : events) {
    rows.push_back(
        {{"id", looksLikeUuid(event.id) ? event.id : ""}, {"message_id", event.message_id}});
  }
  std::string batch = rows.dump();
  std::vector<int> present(events.size()), queued(events.size());
  db::Session sql(db);
  // One verdict per event, in the order given.
  *sql << "SELECT EXISTS (SELECT 1 FROM events x WHERE x.id = nullif(e.doc ->> 'id', '')::uuid)"
          "::int, EXISTS (SELECT 1 FROM messages m WHERE m.id = e.doc ->> 'message_id' AND "
          "m.status = 'QUEUED')::int "
          "FROM jsonb_array_elements(:batch::jsonb) WITH ORDINALITY AS e(doc, n) ORDER BY e.n",
      soci::use(batch), soci::into(present), soci::into(queued);
  for (size_t i = 0; i < events.size(); ++i) {
    if (!present[i]) findings.missing.push_back(events[i]);
    if (queued[i] && saysMessageLeftTheQueue(events[i].type))
      findings.sent_again.push_back(events[i]);
  }
  return findings;
}

bool settleFromSentEvent(db::Database& db, const std::string& sent_event_record, TimePoint now) {
  auto event = topics::EventRecord::parse(sent_event_record);
  if (event.type != "message.sent") throw std::invalid_argument("not a message.sent event");
  std::string id = event.data.at("message_id");
  db::Session sql(db);
  soci::transaction tx(*sql);
  long long charged = 0;
  int attempt = 0;
  *sql << "SELECT cost_cents, send_attempt FROM messages WHERE id = :id AND status = 'QUEUED' "
          "FOR UPDATE",
      soci::use(id), soci::into(charged), soci::into(attempt);
  if (!sql->got_data()) return false;
  int parts = event.data.at("segment_count");
  long long cost = event.data.at("cost_cents");
  const Transition& move = transitionOf(Move::CarrierAccepted);
  auto recorded = db::recordCarrierAcceptance(
      *sql, {.message_id = id,
             .status = std::string(toString(move.to)),
             .event_type = std::string(move.event),
             .carrier_message_id = event.data.at("carrier_message_id"),
             .parts = parts,
             .adjustment_cents = charged - cost,
             .charge_reference = chargeReference(id, attempt),
             .adjustment_description = "Carrier counted " + std::to_string(parts) + " parts",
             .event_id = event.id,
             .event_record = sent_event_record,
             .events_topic = std::string(topics::kEvents.name),
             .now = now,
             .request_id = ""});
  tx.commit();
  return recorded.has_value();
}

bool settleFromFailedEvent(db::Database& db, const std::string& failed_event_record,
                           TimePoint now) {
  auto event = topics::EventRecord::parse(failed_event_record);
  if (event.type != "message.failed") throw std::invalid_argument("not a message.failed event");
  ChargedMessage message;
  message.id = event.data.at("message_id");
  auto textOf = [&event](const char* field) {
    auto found = event.data.find(field);
    return found != event.data.end() && found->is_string() ? found->get<std::string>() : "";
  };
  std::string code = textOf("error_code"), text = textOf("error_message"), at = formatIso(now);
  db::Session sql(db);
  soci::transaction tx(*sql);
  *sql << "UPDATE messages SET status = 'FAILED', error_code = :c, error_message = :m, "
          "updated_at = :now::timestamptz WHERE id = :id AND status = 'QUEUED' "
          "RETURNING account_id, cost_cents, send_attempt",
      soci::use(code), soci::use(text), soci::use(at), soci::use(message.id),
      soci::into(message.account_id), soci::into(message.cost_cents), soci::into(message.attempt);
  if (!sql->got_data()) return false;
  refundCharge(*sql, message, "failed before the restore's backup point was lost");
  db::raiseEventRow(*sql, {.event_id = event.id,
                           .account_id = message.account_id,
                           .type = event.type,
                           .livemode = event.livemode,
                           .record = failed_event_record,
                           .topic = std::string(topics::kEvents.name),
                           .request_id = ""});
  tx.commit();
  return true;
}

}  // namespace smsgw::messaging
