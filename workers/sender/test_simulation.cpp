#include "workers/sender/test_simulation.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include "db/outbox.h"
#include "domain/destinations.h"
#include "services/messaging/still_queued.h"
#include "topics/catalogue.h"
#include "topics/event_writer.h"
#include "topics/records.h"

namespace smsgw::workers {
namespace {

// The carrier code the simulated refusal and the simulated undelivered receipt carry.
constexpr const char* kSimulatedRefusalCode = "40300";
constexpr const char* kSimulatedUndeliveredCode = "30003";

void refuse(soci::session& sql, const std::string& id, const std::string& account,
            const std::string& from, const std::string& to) {
  std::string text = std::string("The carrier refused the message. (carrier ") +
                     kSimulatedRefusalCode + ", simulated)";
  sql << "UPDATE messages SET status = 'FAILED', error_code = 'CARRIER_ERROR', error_message = "
         ":m, cost_cents = 0, handoff_started_at = now(), updated_at = now() WHERE id = :id",
      soci::use(text), soci::use(id);
  topics::raiseEvent(sql, {account,
                           "message.failed",
                           false,
                           {{"message_id", id},
                            {"from", from},
                            {"to", to},
                            {"status", "FAILED"},
                            {"message_status", "FAILED"},
                            {"error_code", "CARRIER_ERROR"},
                            {"error_message", text}}});
}

}  // namespace

void simulateTestSend(WorkerContext& context, const std::string& message_id) {
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
    return;
  }
  auto number = E164::parse(to);
  auto magic = number ? testDestination(*number) : TestDestination::None;
  if (magic == TestDestination::CarrierRefusal) {
    refuse(*sql, message_id, account, from, to);
    tx.commit();
    context.relay.notify();
    return;
  }
  std::string carrier_id = "sim_" + message_id;
  *sql << "UPDATE messages SET status = 'SENDING', handoff_started_at = now(), sent_at = now(), "
          "updated_at = now(), carrier_message_id = :cid WHERE id = :id",
      soci::use(carrier_id), soci::use(message_id);
  topics::raiseEvent(*sql, {account,
                            "message.sent",
                            false,
                            {{"message_id", message_id},
                             {"from", from},
                             {"to", to},
                             {"status", "SENDING"},
                             {"message_status", "SENDING"},
                             {"carrier_message_id", carrier_id},
                             {"segment_count", parts},
                             {"cost_cents", cost}}});
  topics::CarrierReceipt receipt{carrier_id, "delivered"};
  if (magic == TestDestination::Undelivered) {
    receipt.status = "delivery_failed";
    receipt.errors = nlohmann::json::array({{{"code", kSimulatedUndeliveredCode},
                                             {"title", "Unreachable destination handset"},
                                             {"detail", "Simulated in TEST mode."}}});
  }
  db::enqueueOutbox(*sql, std::string(topics::kCarrierReceipts.name), carrier_id,
                    receipt.toJson().dump());
  tx.commit();
  context.relay.notify();
}

}  // namespace smsgw::workers
