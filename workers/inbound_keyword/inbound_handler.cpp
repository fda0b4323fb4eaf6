#include "workers/inbound_keyword/inbound_handler.h"

#include <spdlog/spdlog.h>

#include "services/compliance/inbound_texts.h"
#include "topics/records.h"

namespace smsgw::workers {

topics::Outcome InboundHandler::operator()(const topics::Record& record) {
  auto sms = topics::InboundSms::parse(record.payload);
  switch (compliance::receiveText(context_.db, sms, policy_, context_.clock.now())) {
    case compliance::InboundOutcome::NoHolder:
      spdlog::warn("text {} to {}, a number no account holds: dropped", sms.carrier_message_id,
                   sms.to);
      return topics::Outcome::unchanged();
    case compliance::InboundOutcome::Replayed:
      spdlog::info("inbound {} already stored; replay ignored", sms.carrier_message_id);
      return topics::Outcome::unchanged();
    case compliance::InboundOutcome::Stored:
      break;
  }
  context_.relay.notify();
  return topics::Outcome::done();
}

}  // namespace smsgw::workers
