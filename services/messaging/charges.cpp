#include "services/messaging/charges.h"

#include <soci/soci.h>

#include "db/ledger.h"

namespace smsgw::messaging {

std::string chargeReference(const std::string& message_id, int attempt) {
  return attempt <= 1 ? message_id : message_id + "/" + std::to_string(attempt);
}

void refundCharge(soci::session& sql, const ChargedMessage& message, const std::string& why) {
  if (message.cost_cents <= 0) return;
  db::postLedgerEntry(sql, {message.account_id, message.cost_cents, "sms_refund",
                            chargeReference(message.id, message.attempt), "Refund: " + why});
  sql << "UPDATE messages SET cost_cents = 0 WHERE id = :id", soci::use(message.id, "id");
}

}  // namespace smsgw::messaging
