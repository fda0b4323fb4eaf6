#include "db/procedures/apply_carrier_receipt.h"

#include <soci/soci.h>

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
  std::string error_code = receipt.error_code.value_or(""), at = formatIso(receipt.now);
  soci::indicator error_ind = receipt.error_code ? soci::i_ok : soci::i_null,
                  request_ind = receipt.request_id.empty() ? soci::i_null : soci::i_ok;
  std::string outcome;
  ReceiptApplied applied;
  int live = 0;
  soci::indicator id_ind, account_ind, to_ind, live_ind, attempt_ind, cost_ind;
  sql << kApplyCarrierReceipt.callText(
      "outcome, message_id, account_id, to_number, live::int, send_attempt, cost_cents"),
      soci::use(receipt.carrier_message_id, "p_carrier_message_id"),
      soci::use(receipt.next_status, "p_next_status"),
      soci::use(error_code, error_ind, "p_error_code"), soci::use(receipt.receipt, "p_receipt"),
      soci::use(receipt.event_id, "p_event_id"), soci::use(receipt.event_type, "p_event_type"),
      soci::use(receipt.event_record, "p_event_record"),
      soci::use(receipt.events_topic, "p_events_topic"), soci::use(at, "p_now"),
      soci::use(receipt.request_id, request_ind, "p_request_id"), soci::into(outcome),
      soci::into(applied.message_id, id_ind), soci::into(applied.account_id, account_ind),
      soci::into(applied.to_number, to_ind), soci::into(live, live_ind),
      soci::into(applied.send_attempt, attempt_ind), soci::into(applied.cost_cents, cost_ind);
  applied.verdict = verdictOf(kApplyCarrierReceipt, kVerdicts, outcome);
  applied.live = live_ind == soci::i_ok && live != 0;
  return applied;
}

}  // namespace smsgw::db
