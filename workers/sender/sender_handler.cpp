#include "workers/sender/sender_handler.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include "db/outbox.h"
#include "topics/catalogue.h"
#include "topics/event_writer.h"
#include "topics/records.h"
#include "workers/sender/live_handoff.h"

namespace smsgw::workers {

void SenderHandler::operator()(const topics::Record& record) {
  auto sms = topics::OutboundSms::parse(record.payload);
  if (sms.mode == "TEST") return simulate(sms);
  handOffLive(context_, carrier_, sms.message_id);
}

void SenderHandler::simulate(const topics::OutboundSms& sms) {
  db::Session sql(context_.db);
  soci::transaction tx(*sql);
  std::string carrier_id = "sim_" + sms.message_id;
  std::string account, from, to;
  int parts = 0;
  long long cost = 0;
  *sql << "UPDATE messages SET status = 'SENDING', handoff_started_at = now(), sent_at = now(), "
          "updated_at = now(), "
          "carrier_message_id = :cid WHERE id = :id AND status = 'QUEUED' AND mode = 'TEST' "
          "RETURNING account_id, from_number, to_number, segment_count, cost_cents",
      soci::use(carrier_id), soci::use(sms.message_id), soci::into(account), soci::into(from),
      soci::into(to), soci::into(parts), soci::into(cost);
  if (!sql->got_data()) {
    spdlog::info("message {} already past QUEUED; record ignored", sms.message_id);
    return;
  }
  topics::raiseEvent(*sql, {account,
                            "message.sent",
                            false,
                            {{"message_id", sms.message_id},
                             {"from", from},
                             {"to", to},
                             {"status", "SENDING"},
                             {"message_status", "SENDING"},
                             {"carrier_message_id", carrier_id},
                             {"segment_count", parts},
                             {"cost_cents", cost}}});
  topics::CarrierReceipt receipt{carrier_id, "delivered"};
  db::enqueueOutbox(*sql, std::string(topics::kCarrierReceipts.name), carrier_id,
                    receipt.toJson().dump());
  tx.commit();
  context_.relay.notify();
}

}  // namespace smsgw::workers
