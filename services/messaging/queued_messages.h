#pragma once
// A new outbound message that needs no send checks of its own: a platform text (an automatic
// reply, an opt-in request) or a verification's code. It is QUEUED with message.queued and its
// sms.outbound record, as the transition table says (lifecycle.h), in the caller's transaction.
// A customer's send goes through accept_outbound_message instead (services/sending).

#include <soci/session.h>

#include <optional>
#include <string>

#include "domain/clock.h"

namespace smsgw::messaging {

struct QueuedMessage {
  std::string id;  // newId("msg")
  std::string account_id;
  std::string from, to;
  // None: a verification's, texted from its sealed code.
  std::optional<std::string> body = std::nullopt;
  int parts = 1;
  std::string mode;  // LIVE or TEST
  long long cost_cents = 0;
  int part_price_cents = 0;
  // STOP, START or HELP: the automatic reply to that keyword.
  std::optional<std::string> auto_reply_keyword = std::nullopt;
  bool is_verification = false;
  TimePoint created_at;  // the caller's time
};

void queueMessage(soci::session& sql, const QueuedMessage& message);

}  // namespace smsgw::messaging
