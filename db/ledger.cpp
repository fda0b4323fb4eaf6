#include "db/ledger.h"

#include <soci/soci.h>

#include <cassert>
#include <stdexcept>

namespace smsgw::db {

LedgerResult postLedgerEntry(soci::session& sql, const LedgerPosting& p) {
  assert(p.amount_cents != 0);
  // The balance check, the change and the ledger row are one call (the SQL function
  // post_ledger_entry), which also says what came of it: the rules live there alone.
  std::string outcome;
  long long balance_after = 0;
  soci::indicator balance_ind = soci::i_null;
  sql << "SELECT outcome, balance_after FROM post_ledger_entry(:account, :amount, :kind, :ref, "
         ":description)",
      soci::use(p.account_id), soci::use(p.amount_cents), soci::use(p.kind),
      soci::use(p.reference_id), soci::use(p.description), soci::into(outcome),
      soci::into(balance_after, balance_ind);
  if (outcome == "POSTED") return {LedgerOutcome::Posted, balance_after};
  if (outcome == "ALREADY_POSTED") return {LedgerOutcome::AlreadyPosted};
  if (outcome == "INSUFFICIENT_BALANCE") return {LedgerOutcome::InsufficientBalance};
  throw std::logic_error("post_ledger_entry answered " + outcome);
}

}  // namespace smsgw::db
