#include "db/procedures/apply_carrier_receipt.h"

#include "db/prepared_statement.h"

namespace smsgw::db {
namespace {

constexpr std::pair<std::string_view, ReceiptVerdict> kVerdicts[] = {
    {"APPLIED", ReceiptVerdict::Applied},
    {"UNCHANGED", ReceiptVerdict::Unchanged},
    {"HELD", ReceiptVerdict::Held},
};

// A named function, not a lambda: its address is a constant, so the Procedure below is
// constant-initialized (cert-err58-cpp).
std::vector<std::string_view> allVerdicts() {
  return verdictTexts(kVerdicts);
}

}  // namespace

const Procedure kApplyCarrierReceipt{
    "apply_carrier_receipt",
    {{"p_carrier_message_id", "text"},
     {"p_next_status", "text"},
     {"p_error_code", "text"},
     {"p_receipt", "jsonb"},
     {"p_event_id", "uuid"},
     {"p_event_type", "text"},
     {"p_event_record", "jsonb"},
     {"p_events_topic", "text"},
     {"p_now", "timestamp with time zone"},
     {"p_request_id", "text"}},
    "TABLE(outcome text, message_id text, account_id text, to_number text, live boolean, "
    "send_attempt integer, cost_cents bigint)",
    allVerdicts};

ReceiptApplied applyCarrierReceipt(soci::session& sql, const ReceiptApplication& receipt) {
  // Prepared: one call per receipt.
  static const PreparedStatement apply(
      "apply_carrier_receipt",
      kApplyCarrierReceipt.preparedText(
          "outcome, message_id, account_id, to_number, live::int, send_attempt, cost_cents"));
  Cell error_code = receipt.error_code, request_id = nullIfEmpty(receipt.request_id);
  std::vector<Row> rows = apply.run(
      sql, kApplyCarrierReceipt.inOrder({{"p_carrier_message_id", receipt.carrier_message_id},
                                         {"p_next_status", receipt.next_status},
                                         {"p_error_code", error_code},
                                         {"p_receipt", receipt.receipt},
                                         {"p_event_id", receipt.event_id},
                                         {"p_event_type", receipt.event_type},
                                         {"p_event_record", receipt.event_record},
                                         {"p_events_topic", receipt.events_topic},
                                         {"p_now", formatIso(receipt.now)},
                                         {"p_request_id", request_id}}));
  if (rows.empty()) throw std::runtime_error("apply_carrier_receipt answered no row");
  ReceiptApplied applied;
  const Row& row = rows.front();
  applied.verdict = verdictOf(kApplyCarrierReceipt, kVerdicts, textOr(row[0]));
  applied.message_id = textOr(row[1]);
  applied.account_id = textOr(row[2]);
  applied.to_number = textOr(row[3]);
  applied.live = row[4].has_value() && integerOf(row[4]) != 0;
  if (row[5]) applied.send_attempt = static_cast<int>(integerOf(row[5]));
  if (row[6]) applied.cost_cents = integerOf(row[6]);
  return applied;
}

}  // namespace smsgw::db
