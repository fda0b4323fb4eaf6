#pragma once
// Consent batches: many consents recorded at once. Each row was read like a single consent by
// the caller; rows that failed are counted and listed in `errors`, never recorded, and the rest
// commit together. An opt-out in force wins over any consent in a file; an ACTIVE consent of
// the same type makes a row a repeat; a number twice in one file counts once. Revoking a batch
// revokes the consents it recorded that are still active. Batches are the caller's mode's: a
// batch of the other mode is 404, another account's 403.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "db/database.h"
#include "domain/caller.h"
#include "domain/clock.h"
#include "services/compliance/records.h"

namespace smsgw::compliance {

// One row of a batch as read: its consent, or the error entry to list ({row, code, field?,
// message}).
struct BatchRow {
  std::optional<ConsentDraft> draft;
  nlohmann::json error;
};

struct BatchUpload {
  std::optional<std::string> file_name;
  nlohmann::json defaults = nlohmann::json::object();
  std::vector<BatchRow> rows;
};

inline constexpr size_t kMaxListedBatchErrors = 100;

// The recorded batch with its counts and the first kMaxListedBatchErrors errors.
nlohmann::json recordBatch(db::Database& db, const Caller& caller, const BatchUpload& upload);
// The batch with its defaults.
nlohmann::json batch(db::Database& db, const Caller& caller, const std::string& id);
// Throws ApiError CONFLICT (already_revoked).
nlohmann::json revokeBatch(db::Database& db, const Caller& caller, const std::string& id,
                           TimePoint now);

}  // namespace smsgw::compliance
