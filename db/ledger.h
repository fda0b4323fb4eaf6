#pragma once
// Moves money: changes accounts.balance_cents and appends the ledger row in the caller's
// transaction. The (kind, reference_id) pair is unique, so one cause never moves money twice.

#include <soci/session.h>

#include <string>

#include "db/procedures/procedure.h"

namespace smsgw::db {

struct LedgerPosting {
  std::string account_id;
  long long amount_cents;  // positive credits, negative debits; never zero
  std::string kind;        // top_up, sms_outbound, sms_refund, …
  std::string reference_id;
  std::string description;
};

enum class LedgerOutcome { Posted, InsufficientBalance, AlreadyPosted };

struct LedgerResult {
  LedgerOutcome outcome;
  long long balance_after_cents = 0;
};

// The SQL function post_ledger_entries, which holds the rules (procedure.h says how it is
// called); postLedgerEntry posts one entry through it.
extern const Procedure kPostLedgerEntries;

LedgerResult postLedgerEntry(soci::session& sql, const LedgerPosting& posting);

}  // namespace smsgw::db
