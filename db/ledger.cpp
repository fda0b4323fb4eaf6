#include "db/ledger.h"

#include <soci/soci.h>

#include <cassert>

namespace smsgw::db {

LedgerResult postLedgerEntry(soci::session& sql, const LedgerPosting& p) {
  assert(p.amount_cents != 0);
  // The balance check and the change are one statement (the SQL function post_ledger_entry):
  // concurrent debits serialize on the account row and none can take the balance below zero.
  // The same cause posted twice finds its earlier row and moves nothing (UNIQUE (kind,
  // reference_id) backs this up).
  long long balance_after = 0;
  soci::indicator ind = soci::i_null;
  sql << "SELECT post_ledger_entry(:account, :amount, :kind, :ref, :description)",
      soci::use(p.account_id), soci::use(p.amount_cents), soci::use(p.kind),
      soci::use(p.reference_id), soci::use(p.description), soci::into(balance_after, ind);
  if (ind == soci::i_null) {
    // Nothing moved: either the cause was posted before, or the balance is short.
    int already = 0;
    sql << "SELECT count(*) FROM ledger_entries WHERE kind = :kind AND reference_id = :ref",
        soci::use(p.kind), soci::use(p.reference_id), soci::into(already);
    return {already > 0 ? LedgerOutcome::AlreadyPosted : LedgerOutcome::InsufficientBalance};
  }
  return {LedgerOutcome::Posted, balance_after};
}

}  // namespace smsgw::db
