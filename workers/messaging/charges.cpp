#include "workers/messaging/charges.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include "db/ledger.h"

namespace smsgw::workers {

std::string chargeReference(const std::string& message_id, int attempt) {
  return attempt <= 1 ? message_id : message_id + "/" + std::to_string(attempt);
}

void refundCharge(soci::session& sql, const ChargedMessage& message, const std::string& why) {
  if (message.cost_cents <= 0) return;
  db::postLedgerEntry(sql, {message.account_id, message.cost_cents, "sms_refund",
                            chargeReference(message.id, message.attempt), "Refund: " + why});
  sql << "UPDATE messages SET cost_cents = 0 WHERE id = :id", soci::use(message.id);
}

long long settleCharge(soci::session& sql, const ChargedMessage& message, int part_price_cents,
                       int carrier_parts) {
  long long settled = static_cast<long long>(part_price_cents) * carrier_parts;
  long long difference = message.cost_cents - settled;  // positive: we charged too much
  if (message.cost_cents <= 0 || difference == 0) return message.cost_cents;
  auto posted =
      db::postLedgerEntry(sql, {message.account_id, difference, "sms_adjustment",
                                chargeReference(message.id, message.attempt),
                                "Carrier counted " + std::to_string(carrier_parts) + " parts"});
  if (posted.outcome == db::LedgerOutcome::InsufficientBalance) {
    spdlog::warn("message {}: carrier counted {} parts; the balance does not cover the difference",
                 message.id, carrier_parts);
    return message.cost_cents;
  }
  sql << "UPDATE messages SET cost_cents = :c WHERE id = :id", soci::use(settled),
      soci::use(message.id);
  return settled;
}

}  // namespace smsgw::workers
