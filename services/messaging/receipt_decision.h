#pragma once
// What a carrier receipt decides, apart from what applying it reads and writes (receipts.cpp):
// its move, the error code the message keeps, and what a LIVE message's move entails. Pure;
// unit-tested in tests/unit/receipt_decision_test.cpp.

#include <optional>
#include <string>

#include "services/messaging/lifecycle.h"
#include "topics/records.h"

namespace smsgw::messaging {

struct ReceiptDecision {
  Move move;               // one of the Receipt* moves
  std::string error_code;  // a failure's first carrier error code; empty when it gave none
};
// Every record on carrier.receipts is a final word (receiptMove). Throws topics::PermanentError
// for a status the carrier protocol does not have: no retry will help.
ReceiptDecision decideReceipt(const topics::CarrierReceipt& receipt);

// What applying a move to a LIVE message entails beyond its status and event (a TEST message,
// and any delivered one, entail nothing).
struct ReceiptFollowUp {
  bool refund = false;  // the carrier could not send it: the charge is given back
  bool counts_against_destination = false;  // toward undeliverable, and the account's health
};
// Only a failure counts against the destination: an unconfirmed receipt is no evidence.
ReceiptFollowUp followUpOf(Move move, bool live);

}  // namespace smsgw::messaging
