#pragma once
// After a database restore: the changes that raise no event (a signup, an API key made or
// revoked, money other than a message's) left a record on the accounts.trail topic (migration
// 0031), which a restore does not roll back. Set against the restored database, the records
// from the backup's time on say which accounts, keys and ledger entries it lost, and which keys
// it holds as active though they were revoked after the backup: those would let a key the
// customer revoked (a leaked one, say) in again.

#include <string>
#include <vector>

#include "db/database.h"

namespace smsgw::accounts {

struct TrailRecord {
  std::string type;  // account.created, api_key.created, api_key.revoked, ledger_entry
  std::string account_id;
  std::string key_id;              // api_key.*
  std::string kind, reference_id;  // ledger_entry
  long long amount_cents = 0;      // ledger_entry
  std::string at;                  // when, as the lost database wrote it
};

// Throws std::invalid_argument on a record this gateway did not write.
TrailRecord parseTrailRecord(const std::string& payload);

struct TrailFindings {
  std::vector<TrailRecord> missing_accounts, missing_keys, missing_ledger_entries;
  std::vector<TrailRecord> keys_active_again;  // api_key.revoked whose key is not revoked here
};

// Judges a batch of records against the database (one statement per batch).
TrailFindings judgeTrailAfterRestore(db::Database& db, const std::vector<TrailRecord>& records);

// Revokes again, at the time the record gives, a key the restored database holds as active.
// False when it is already revoked or not there.
bool revokeAgainAfterRestore(db::Database& db, const TrailRecord& revoked);

}  // namespace smsgw::accounts
