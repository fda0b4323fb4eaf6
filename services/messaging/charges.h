#pragma once
// The money of one outbound message. Each send attempt (a retry with the same Idempotency-Key
// after a failure before the carrier is a second attempt) has its own ledger reference, so
// the ledger's (kind, reference) uniqueness charges and refunds every attempt at most once.

#include <soci/session.h>

#include <string>

namespace smsgw::messaging {

std::string chargeReference(const std::string& message_id, int attempt);

struct ChargedMessage {
  std::string id;
  std::string account_id;
  int attempt = 1;
  long long cost_cents = 0;
};

// Gives back the attempt's charge (nothing when it cost nothing) and sets cost_cents to 0.
void refundCharge(soci::session& sql, const ChargedMessage& message, const std::string& why);

}  // namespace smsgw::messaging
