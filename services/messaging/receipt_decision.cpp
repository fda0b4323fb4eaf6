#include "services/messaging/receipt_decision.h"

#include <stdexcept>

namespace smsgw::messaging {

ReceiptDecision decideReceipt(const topics::CarrierReceipt& receipt) {
  Move move;
  try {
    move = receiptMove(receipt.status);
  } catch (const std::invalid_argument& e) {
    throw topics::PermanentError(e.what());
  }
  ReceiptDecision decision{move, ""};
  // The spec keeps an error code on FAILED and UNDELIVERED only; the errors themselves still
  // travel in the event.
  bool failed = move == Move::ReceiptUndelivered || move == Move::ReceiptSendingFailed;
  if (failed && receipt.errors.is_array() && !receipt.errors.empty() &&
      receipt.errors[0].is_object()) {
    auto code = receipt.errors[0].find("code");
    if (code != receipt.errors[0].end() && code->is_string()) decision.error_code = *code;
  }
  return decision;
}

ReceiptFollowUp followUpOf(Move move, bool live) {
  if (!live || (move != Move::ReceiptUndelivered && move != Move::ReceiptSendingFailed)) return {};
  return {transitionOf(move).to == MessageStatus::Failed, true};
}

}  // namespace smsgw::messaging
