#pragma once
// The writes of an INBOUND message (a text a subscriber sent to an account number): stored
// RECEIVED, charged the inbound price, and announced with message.received, each status and
// event from the transition table (lifecycle.h). Called, in one transaction, by
// services/compliance/inbound_texts.h, which acts on the text's keyword between them.

#include <soci/session.h>

#include <optional>
#include <string>

#include "domain/clock.h"

namespace smsgw::messaging {

struct InboundText {
  std::string account_id;
  std::string from, to, body;
  int parts = 1;
  std::string carrier_message_id;  // the natural key: a replayed record stores nothing
  bool capped = false;             // over the account's inbound cap: stored without its body
};

// The new message's id; nullopt when a text with this carrier id is already stored.
std::optional<std::string> storeInbound(soci::session& sql, const InboundText& text);

// LIVE inbound texts the account received in the 24 hours before `now`, capped ones left out.
int inboundReceivedInWindow(soci::session& sql, const std::string& account_id, TimePoint now);

// The inbound charge, on the ledger and the message; an account that cannot pay still receives
// the text, uncharged (0).
long long chargeInbound(soci::session& sql, const std::string& account_id,
                        const std::string& message_id, int parts);

// Records what its keyword did and raises message.received.
void announceInbound(soci::session& sql, const std::string& message_id, const InboundText& text,
                     const std::string& keyword_action, long long cost_cents);

}  // namespace smsgw::messaging
