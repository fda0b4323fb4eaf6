#pragma once
// A text a subscriber sent to an account number (sms.inbound), received in one transaction: it
// is stored as an INBOUND message (RECEIVED) with the inbound charge for the parts we count in
// its text (never the carrier's figure, at most 10; services/messaging/inbound_messages.h), its
// first word acted on (STOP and its kin record an opt-out for that number, START reinstates
// one, HELP is answered, YES confirms a double opt-in), the automatic reply queued, and
// message.received and the opt-out events raised. Over the account's inbound
// cap a text is stored without content, uncharged and not announced (STOP, START and HELP keep
// working). The automatic reply is written apart, under a savepoint: one that cannot be written
// is logged and counted, and never takes the STOP down with it. The carrier's message id is the
// natural key: a replayed record changes nothing.

#include "db/database.h"
#include "domain/clock.h"
#include "domain/send_policy.h"
#include "topics/records.h"

namespace smsgw::compliance {

enum class InboundOutcome {
  Stored,
  NoHolder,  // the number is no account's: dropped
  Replayed,  // already stored
};

// `policy`: the opt-out rate that pauses sending.
InboundOutcome receiveText(db::Database& db, const topics::InboundSms& sms,
                           const SendPolicy& policy, TimePoint now);

}  // namespace smsgw::compliance
