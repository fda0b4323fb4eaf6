#include "services/messaging/receipt_decision.h"

#include <stdexcept>

namespace smsgw::messaging {

std::optional<ReceiptDecision> decideReceipt(const topics::CarrierReceipt& receipt) {
  std::optional<Move> move;
  try {
    move = receiptMove(receipt.status);
  } catch (const std::invalid_argument& e) {
    throw topics::PermanentError(e.what());
  }
  if (!move) return std::nullopt;
  ReceiptDecision decision{*move, ""};
  if (receipt.errors.is_array() && !receipt.errors.empty() && receipt.errors[0].is_object()) {
    auto code = receipt.errors[0].find("code");
    if (code != receipt.errors[0].end() && code->is_string()) decision.error_code = *code;
  }
  return decision;
}

ReceiptFollowUp followUpOf(Move move, bool live) {
  if (!live || move == Move::ReceiptDelivered) return {};
  return {transitionOf(move).to == MessageStatus::Failed, true};
}

}  // namespace smsgw::messaging
