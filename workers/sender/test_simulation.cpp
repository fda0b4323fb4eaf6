#include "workers/sender/test_simulation.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include "db/outbox.h"
#include "domain/errors.h"
#include "services/messaging/lifecycle.h"
#include "services/messaging/still_queued.h"
#include "topics/catalogue.h"
#include "topics/event_writer.h"
#include "topics/records.h"
#include "workers/sender/handoff_decision.h"

namespace smsgw::workers {
namespace {

void refuse(soci::session& sql, const std::string& id, const std::string& account,
            const std::string& from, const std::string& to, const SimulatedHandoff& simulated) {
  const std::string& text = simulated.error_message;
  const auto& move = messaging::transitionOf(simulated.move);
  std::string status(messaging::toString(move.to));
  std::string code(errorInfo(simulated.failure).name);
  sql << "UPDATE messages SET status = :s, error_code = :c, error_message = :m, cost_cents = 0, "
         "handoff_started_at = now(), updated_at = now() WHERE id = :id",
      soci::use(status), soci::use(code), soci::use(text), soci::use(id);
  topics::raiseEvent(sql, {account, std::string(move.event), false,
                           messaging::handoffFailedEvent({id, from, to}, simulated.failure, text)});
}

}  // namespace

bool simulateTestSend(WorkerContext& context, const std::string& message_id) {
  db::Session sql(context.db);
  soci::transaction tx(*sql);
  std::string account, from, to;
  int parts = 0;
  long long cost = 0;
  *sql << std::string(
              "SELECT account_id, from_number, to_number, segment_count, cost_cents "
              "FROM messages WHERE id = :id AND mode = 'TEST' AND ") +
              messaging::kStillQueued + " FOR UPDATE",
      soci::use(message_id), soci::into(account), soci::into(from), soci::into(to),
      soci::into(parts), soci::into(cost);
  if (!sql->got_data()) {
    spdlog::info("message {} already past QUEUED; record ignored", message_id);
    return false;
  }
  SimulatedHandoff simulated = simulateHandoff(message_id, to);
  if (simulated.move == messaging::Move::CarrierRefused) {
    refuse(*sql, message_id, account, from, to, simulated);
    tx.commit();
    context.relay.notify();
    return true;
  }
  const topics::CarrierReceipt& receipt = *simulated.receipt;
  const std::string& carrier_id = receipt.carrier_message_id;
  const auto& move = messaging::transitionOf(simulated.move);
  std::string status(messaging::toString(move.to));
  *sql << "UPDATE messages SET status = :s, handoff_started_at = now(), sent_at = now(), "
          "updated_at = now(), carrier_message_id = :cid WHERE id = :id",
      soci::use(status), soci::use(carrier_id), soci::use(message_id);
  topics::raiseEvent(*sql, {account, std::string(move.event), false,
                            messaging::sentEvent({message_id, from, to}, carrier_id, parts, cost)});
  db::enqueueOutbox(*sql, std::string(topics::kCarrierReceipts.name), carrier_id,
                    receipt.toJson().dump());
  tx.commit();
  context.relay.notify();
  return true;
}

}  // namespace smsgw::workers
