#include "db/ledger.h"

#include <soci/soci.h>

#include <cassert>
#include <nlohmann/json.hpp>

namespace smsgw::db {
namespace {

constexpr std::pair<std::string_view, LedgerOutcome> kOutcomes[] = {
    {"POSTED", LedgerOutcome::Posted},
    {"ALREADY_POSTED", LedgerOutcome::AlreadyPosted},
    {"INSUFFICIENT_BALANCE", LedgerOutcome::InsufficientBalance},
};

// A named function, not a lambda: its address is a constant, so the Procedure below is
// constant-initialized (cert-err58-cpp).
std::vector<std::string_view> allVerdicts() {
  return verdictTexts(kOutcomes);
}

}  // namespace

const Procedure kPostLedgerEntries{
    "post_ledger_entries",
    {{"p_account", "text"}, {"p_amount", "bigint"}, {"p_kind", "text"}, {"p_entries", "jsonb"}},
    "TABLE(outcome text, balance_after bigint)",
    allVerdicts};

LedgerResult postLedgerEntry(soci::session& sql, const LedgerPosting& p) {
  assert(p.amount_cents != 0);
  // The balance check, the change and the ledger row are one call, which also says what came
  // of it: the rules live in the function alone.
  // One entry of the batched form, which broadcasts and sends share.
  std::string entries =
      nlohmann::json::array({{{"reference", p.reference_id}, {"description", p.description}}})
          .dump();
  std::string outcome;
  long long balance_after = 0;
  soci::indicator balance_ind = soci::i_null;
  sql << kPostLedgerEntries.callText("outcome, balance_after"),
      soci::use(p.account_id, "p_account"), soci::use(p.amount_cents, "p_amount"),
      soci::use(p.kind, "p_kind"), soci::use(entries, "p_entries"), soci::into(outcome),
      soci::into(balance_after, balance_ind);
  LedgerOutcome verdict = verdictOf(kPostLedgerEntries, kOutcomes, outcome);
  return {verdict, verdict == LedgerOutcome::Posted ? balance_after : 0};
}

}  // namespace smsgw::db
