#include "services/messaging/lifecycle.h"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace smsgw::messaging {
namespace {

using S = MessageStatus;

constexpr std::array<std::pair<S, std::string_view>, 7> kNames = {{{S::Queued, "QUEUED"},
                                                                   {S::Sending, "SENDING"},
                                                                   {S::Sent, "SENT"},
                                                                   {S::Delivered, "DELIVERED"},
                                                                   {S::Failed, "FAILED"},
                                                                   {S::Undelivered, "UNDELIVERED"},
                                                                   {S::Received, "RECEIVED"}}};

// The spec's table, as built: receipts settle a message the carrier took (SENDING, or SENT
// should a carrier report it so); a receipt that comes while it is still QUEUED is held until
// the sender records the carrier's answer, so QUEUED is not a start for them.
const Transition& table(Move move) {
  static const Transition kAccept{{}, S::Queued, "message.queued"};
  static const Transition kRequeue{{S::Failed}, S::Queued, "message.queued"};
  static const Transition kCarrierAccepted{{S::Queued}, S::Sending, "message.sent"};
  static const Transition kCarrierRefused{{S::Queued}, S::Failed, "message.failed"};
  static const Transition kInterrupted{{S::Queued}, S::Failed, "message.failed"};
  static const Transition kCancelledForErasure{{S::Queued}, S::Failed, "message.failed"};
  static const Transition kDelivered{{S::Sending, S::Sent}, S::Delivered, "message.delivered"};
  static const Transition kUndelivered{
      {S::Sending, S::Sent}, S::Undelivered, "message.undelivered"};
  static const Transition kSendingFailed{{S::Sending, S::Sent}, S::Failed, "message.failed"};
  // The spec's reserved message.sending: a final receipt that reports no outcome. SENT tells
  // it apart from a message still on its way; a late outcome may still settle it.
  static const Transition kUnconfirmed{{S::Sending}, S::Sent, "message.sending"};
  static const Transition kReceive{{}, S::Received, "message.received"};
  switch (move) {
    case Move::Accept:
      return kAccept;
    case Move::Requeue:
      return kRequeue;
    case Move::CarrierAccepted:
      return kCarrierAccepted;
    case Move::CarrierRefused:
      return kCarrierRefused;
    case Move::HandoffInterrupted:
      return kInterrupted;
    case Move::CancelledForErasure:
      return kCancelledForErasure;
    case Move::ReceiptDelivered:
      return kDelivered;
    case Move::ReceiptUndelivered:
      return kUndelivered;
    case Move::ReceiptSendingFailed:
      return kSendingFailed;
    case Move::ReceiptUnconfirmed:
      return kUnconfirmed;
    case Move::Receive:
      return kReceive;
  }
  throw std::logic_error("unknown move");
}

// What every message.* event names: the message, and its status as the event's `status` too
// (the receipt events put the carrier's status there instead).
nlohmann::json base(const MessageParties& message, MessageStatus status) {
  return {{"message_id", message.id},
          {"from", message.from},
          {"to", message.to},
          {"status", toString(status)},
          {"message_status", toString(status)}};
}

}  // namespace

const std::vector<ErrorCode>& platformFailures() {
  static const std::vector<ErrorCode> kCodes = {
      ErrorCode::STALE_QUEUED, ErrorCode::CARRIER_UNAVAILABLE, ErrorCode::CARRIER_THROTTLED,
      ErrorCode::CARRIER_TIMEOUT};
  return kCodes;
}

const std::vector<ErrorCode>& unjudgedFailures() {
  static const std::vector<ErrorCode> kCodes = [] {
    std::vector<ErrorCode> codes = platformFailures();
    codes.push_back(ErrorCode::RECIPIENT_ERASED);
    return codes;
  }();
  return kCodes;
}

std::string_view toString(MessageStatus status) {
  for (const auto& [value, name] : kNames) {
    if (value == status) return name;
  }
  throw std::logic_error("unknown message status");
}

std::optional<MessageStatus> messageStatusFromString(std::string_view text) {
  for (const auto& [value, name] : kNames) {
    if (name == text) return value;
  }
  return std::nullopt;
}

std::vector<MessageStatus> allMessageStatuses() {
  std::vector<MessageStatus> out;
  out.reserve(kNames.size());
  for (const auto& [value, name] : kNames) out.push_back(value);
  return out;
}

const Transition& transitionOf(Move move) {
  return table(move);
}

bool allows(Move move, std::optional<MessageStatus> from) {
  const Transition& transition = table(move);
  if (!from) return transition.from.empty();
  return std::find(transition.from.begin(), transition.from.end(), *from) != transition.from.end();
}

Move receiptMove(std::string_view carrier_status) {
  if (carrier_status == "delivered") return Move::ReceiptDelivered;
  if (carrier_status == "delivery_failed" || carrier_status == "expired")
    return Move::ReceiptUndelivered;
  if (carrier_status == "sending_failed") return Move::ReceiptSendingFailed;
  if (carrier_status == "delivery_unconfirmed" || carrier_status == "queued" ||
      carrier_status == "sending" || carrier_status == "sent")
    return Move::ReceiptUnconfirmed;
  throw std::invalid_argument("unknown carrier status '" + std::string(carrier_status) + "'");
}

bool isFinalCarrierStatus(std::string_view carrier_status) {
  return carrier_status != "queued" && carrier_status != "sending" && carrier_status != "sent";
}

nlohmann::json queuedEvent(const MessageParties& message) {
  return base(message, S::Queued);
}

nlohmann::json sentEvent(const MessageParties& message, const std::string& carrier_message_id,
                         int segment_count, long long cost_cents) {
  nlohmann::json data = base(message, transitionOf(Move::CarrierAccepted).to);
  data["carrier_message_id"] = carrier_message_id;
  data["segment_count"] = segment_count;
  data["cost_cents"] = cost_cents;
  return data;
}

nlohmann::json handoffFailedEvent(const MessageParties& message, ErrorCode code,
                                  const std::string& error_message) {
  nlohmann::json data = base(message, transitionOf(Move::CarrierRefused).to);
  data["error_code"] = errorInfo(code).name;
  data["error_message"] = error_message;
  return data;
}

nlohmann::json interruptedEvent(const std::string& message_id) {
  MessageStatus failed = transitionOf(Move::HandoffInterrupted).to;
  return {{"message_id", message_id},
          {"status", toString(failed)},
          {"message_status", toString(failed)},
          {"error_code", errorInfo(ErrorCode::STALE_QUEUED).name},
          {"error_message", errorInfo(ErrorCode::STALE_QUEUED).message_en}};
}

nlohmann::json receiptEvent(Move move, const std::string& carrier_status,
                            const nlohmann::json& errors, const std::string& error_code) {
  MessageStatus next = transitionOf(move).to;
  nlohmann::json data = {
      {"status", carrier_status}, {"message_status", toString(next)}, {"errors", errors}};
  if (next == S::Failed)
    data["error_code"] = error_code.empty() ? nlohmann::json(nullptr) : nlohmann::json(error_code);
  return data;
}

nlohmann::json receivedEvent(const MessageParties& message, const std::string& body,
                             const std::string& keyword_action, int segment_count,
                             long long cost_cents) {
  nlohmann::json data = base(message, S::Received);
  data["body"] = body;
  data["keyword_action"] = keyword_action;
  data["segment_count"] = segment_count;
  data["cost_cents"] = cost_cents;
  return data;
}

}  // namespace smsgw::messaging
