#include "services/messaging/test_sends.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include "db/outbox.h"
#include "domain/errors.h"
#include "services/messaging/handoff_decision.h"
#include "services/messaging/lifecycle.h"
#include "services/messaging/still_queued.h"
#include "topics/catalogue.h"
#include "topics/event_writer.h"
#include "topics/records.h"

namespace smsgw::messaging {
namespace {

void refuse(soci::session& sql, const MessageParties& message, const SimulatedHandoff& simulated,
            const std::string& account, const std::string& at) {
  const std::string& text = simulated.error_message;
  const auto& move = transitionOf(simulated.move);
  std::string status(toString(move.to));
  std::string code(errorInfo(simulated.failure).name);
  sql << "UPDATE messages SET status = :s, error_code = :c, error_message = :m, cost_cents = 0, "
         "handoff_started_at = :now::timestamptz, updated_at = :now::timestamptz WHERE id = :id",
      soci::use(status, "s"), soci::use(code, "c"), soci::use(text, "m"), soci::use(at, "now"),
      soci::use(message.id, "id");
  topics::raiseEvent(sql, {account, std::string(move.event), false,
                           handoffFailedEvent(message, simulated.failure, text)});
}

}  // namespace

bool simulateTestSend(db::Database& db, const std::string& message_id, TimePoint now) {
  std::string at = formatIso(now);
  db::Session sql(db);
  soci::transaction tx(*sql);
  std::string account, from, to;
  int parts = 0;
  long long cost = 0;
  *sql << std::string(
              "SELECT account_id, from_number, to_number, segment_count, cost_cents "
              "FROM messages WHERE id = :id AND mode = 'TEST' AND ") +
              kStillQueued + " FOR UPDATE",
      soci::use(message_id, "id"), soci::into(account), soci::into(from), soci::into(to),
      soci::into(parts), soci::into(cost);
  if (!sql->got_data()) {
    spdlog::info("message {} already past QUEUED; record ignored", message_id);
    return false;
  }
  SimulatedHandoff simulated = simulateHandoff(message_id, to);
  if (simulated.move == Move::CarrierRefused) {
    refuse(*sql, {message_id, from, to}, simulated, account, at);
    tx.commit();
    return true;
  }
  const topics::CarrierReceipt& receipt = *simulated.receipt;
  const std::string& carrier_id = receipt.carrier_message_id;
  const auto& move = transitionOf(simulated.move);
  std::string status(toString(move.to));
  *sql << "UPDATE messages SET status = :s, handoff_started_at = :now::timestamptz, "
          "sent_at = :now::timestamptz, updated_at = :now::timestamptz, carrier_message_id = :cid "
          "WHERE id = :id",
      soci::use(status, "s"), soci::use(at, "now"), soci::use(carrier_id, "cid"),
      soci::use(message_id, "id");
  topics::raiseEvent(*sql, {account, std::string(move.event), false,
                            sentEvent({message_id, from, to}, carrier_id, parts, cost)});
  db::enqueueOutbox(*sql, std::string(topics::kCarrierReceipts.name), carrier_id,
                    receipt.toJson().dump());
  tx.commit();
  return true;
}

}  // namespace smsgw::messaging
