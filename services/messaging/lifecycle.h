#pragma once
// The message lifecycle in one place (spec "Message status" and "Events"): the statuses, every
// move between them with the statuses it may start from and the event it raises, and the
// payload of every message.* event. Every status change is written by a file of this folder
// (services/README.md says which makes which move; tests/layers fails on a message written
// anywhere else), taking its target status and its event from here. A customer's send is
// made QUEUED by the SQL functions accept_outbound_message and accept_broadcast_batch
// (services/sending); they and the others that make a move in one round trip
// (record_carrier_acceptance, apply_carrier_receipt) are handed the status and the event from
// here; an integration test holds every move's guard to this table
// (tests/integration/message_lifecycle_test.cpp).
// Pure; thread-safe.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "domain/errors.h"

namespace smsgw::messaging {

enum class MessageStatus { Queued, Sending, Sent, Delivered, Failed, Undelivered, Received };

std::string_view toString(MessageStatus status);  // "QUEUED", …
std::optional<MessageStatus> messageStatusFromString(std::string_view text);
std::vector<MessageStatus> allMessageStatuses();

enum class Move {
  Accept,                // a send accepted and charged: a new QUEUED message
  Requeue,               // its retry with the same Idempotency-Key, FAILED before the carrier
  CarrierAccepted,       // the carrier took it
  CarrierRefused,        // the carrier refused it, or was unreachable, throttled or silent
  HandoffInterrupted,    // a sender died while handing it over (STALE_QUEUED)
  CancelledForErasure,   // its recipient was erased before the hand-off (RECIPIENT_ERASED)
  ReceiptDelivered,      // the carrier's receipt: on the handset
  ReceiptUndelivered,    // blocked, expired or unreachable (charge kept)
  ReceiptSendingFailed,  // the carrier could not send it after all (refunded)
  ReceiptUnconfirmed,    // the carrier's last word confirms nothing (charge kept): SENT
  Receive,               // a text arrived on an account number
};

struct Transition {
  std::vector<MessageStatus> from;  // empty: the move makes a new message
  MessageStatus to;
  std::string_view event;  // the message.* event it raises
};

const Transition& transitionOf(Move move);
// Whether a message in `from` (nullopt: none yet) may make `move`.
bool allows(Move move, std::optional<MessageStatus> from);

// Failures of the platform's own hand-off, before the carrier judged the message (the carrier
// unreachable, throttling or silent, or a sender that died): not the account's doing, so they
// do not count toward its delivery health. Which of them may be queued again under the same
// Idempotency-Key (those the carrier surely never sent) is the SQL function
// failed_before_carrier's rule alone, read where a retry is decided.
const std::vector<ErrorCode>& platformFailures();
// Failures the carrier never judged: the platform's, and sends cancelled because their recipient
// was erased. None counts toward the account's delivery health (protection.h).
const std::vector<ErrorCode>& unjudgedFailures();

// A final receipt's recipient status (Telnyx's message.finalized, or a poll that found a final
// status) as a move. delivered, delivery_failed, expired and sending_failed settle the message;
// delivery_unconfirmed, and a final word that is still queued, sending or sent, confirm nothing
// and leave it SENT (docs/carrier.md). Throws std::invalid_argument for a status Telnyx does
// not have, and for none.
Move receiptMove(std::string_view carrier_status);
// Whether a message at this status has the carrier's last word (what a poll of the carrier
// waits for): everything but queued, sending and sent.
bool isFinalCarrierStatus(std::string_view carrier_status);

// A message's own fields every event names.
struct MessageParties {
  std::string id;
  std::string from;
  std::string to;
};

// message.queued (Accept, Requeue) and message.sent (CarrierAccepted).
nlohmann::json queuedEvent(const MessageParties& message);
nlohmann::json sentEvent(const MessageParties& message, const std::string& carrier_message_id,
                         int segment_count, long long cost_cents);
// message.failed, form (a): the hand-off failed; `code` from the error table.
nlohmann::json handoffFailedEvent(const MessageParties& message, ErrorCode code,
                                  const std::string& error_message);
// message.failed, form (c): a restart interrupted the hand-off; no from, no to.
nlohmann::json interruptedEvent(const std::string& message_id);
// message.delivered, .undelivered and .failed form (b), from a receipt: the carrier's status
// and errors. The message's own fields are added where the message is found (SQL).
nlohmann::json receiptEvent(Move move, const std::string& carrier_status,
                            const nlohmann::json& errors, const std::string& error_code);
// message.received.
nlohmann::json receivedEvent(const MessageParties& message, const std::string& body,
                             const std::string& keyword_action, int segment_count,
                             long long cost_cents);

}  // namespace smsgw::messaging
