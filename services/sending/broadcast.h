#pragma once
// POST /v1/contact-groups/{id}/messages: one text to every member of a group, each member's
// message a normal message (charged per part, paced on the sending number, receipts, events).
// Group-wide refusals are errors, decided before anyone is messaged: the group (404/403), the
// LIVE sender (PHONE_NUMBER_NOT_OWNED, PHONE_NUMBER_SUSPENDED, ACCOUNT_NOT_VERIFIED,
// SENDING_PAUSED, skip_consent_check), BROADCAST_TOO_LARGE, BROADCAST_LIMIT_REACHED,
// DAILY_LIMIT_REACHED and FANOUT_LIMIT_REACHED for the members it would message, and
// INSUFFICIENT_BALANCE when the balance cannot pay for all of them. Per-member refusals are
// results (broadcast_members.h).
//
// It reads and checks in one transaction, then charges and queues the members in batches of
// SendPolicy::broadcast_batch_size, one transaction each, each recording which numbers it
// messaged (broadcast_recipients). Idempotency-Key: a repeat within 24 hours of the broadcast's
// slot returns the stored answer without checking anything or using a slot; a retry of a
// broadcast that never answered (the API died between batches) or a later one re-runs the
// checks (the later one uses a new slot) and never messages a number the broadcast reached.

#include <nlohmann/json.hpp>
#include <string>

#include "domain/caller.h"
#include "domain/phone.h"
#include "services/sending/accept_send.h"

namespace smsgw::sending {

struct BroadcastRequest {
  std::string group_id;
  E164 from;
  std::string body;
  bool skip_consent_check = false;
  std::string idempotency_key;  // empty: none
  std::string fingerprint;      // what the key must keep meaning (group, from, body, skip)
};

// The 207's body: {id, group_id, sent_to, failed, results: [{to, status, message_id?, error?}]}.
nlohmann::json broadcastToGroup(const SendServices& services, const Caller& caller,
                                const BroadcastRequest& request);

}  // namespace smsgw::sending
