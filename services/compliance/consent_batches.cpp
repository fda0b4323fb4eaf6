#include "services/compliance/consent_batches.h"

#include <soci/soci.h>

#include <set>

#include "db/json_rows.h"
#include "domain/errors.h"
#include "domain/ids.h"
#include "domain/ownership.h"

namespace smsgw::compliance {
namespace {

constexpr const char* kBatchWithDefaults =
    "SELECT api_consent_batch(b, true)::text FROM consent_batches b WHERE b.id = :id";

struct Counts {
  int rows = 0, duplicate_in_file = 0, invalid = 0;
  ConsentTally recorded;
  nlohmann::json toJson() const {
    return {{"rows", rows},
            {"recorded", recorded.express + recorded.implied},
            {"express", recorded.express},
            {"implied", recorded.implied},
            {"already_recorded", recorded.already_recorded},
            {"opted_out", recorded.opted_out},
            {"revoked_by_review", 0},
            {"duplicate_in_file", duplicate_in_file},
            {"invalid", invalid}};
  }
};

void requireOwnBatch(soci::session& sql, const Caller& caller, const std::string& id) {
  std::string owner, mode;
  sql << "SELECT account_id, mode FROM consent_batches WHERE id = :id", soci::use(id),
      soci::into(owner), soci::into(mode);
  requireOwnedBy(sql.got_data() ? std::optional(owner) : std::nullopt, caller.account_id);
  if (mode != toString(caller.mode)) throw ApiError(ErrorCode::NOT_FOUND);
}

}  // namespace

nlohmann::json recordBatch(db::Database& db, const Caller& caller, const BatchUpload& upload) {
  const std::string& account = caller.account_id;
  std::string mode(toString(caller.mode));
  db::Session sql(db);
  soci::transaction tx(*sql);
  std::string id = newId("cb"), defaults = upload.defaults.dump();
  std::string file_name = upload.file_name.value_or("");
  soci::indicator file_ind = upload.file_name ? soci::i_ok : soci::i_null;
  // A session's batches were imported in the dashboard; every other key's came through the API.
  std::string source = caller.dashboard_session ? "dashboard" : "api";
  *sql << "INSERT INTO consent_batches (id, account_id, mode, source, file_name, attested, "
          "defaults, counts) VALUES (:id, :a, :m, :source, :f, true, :d::jsonb, '{}'::jsonb)",
      soci::use(id), soci::use(account), soci::use(mode), soci::use(source),
      soci::use(file_name, file_ind), soci::use(defaults);

  Counts counts;
  nlohmann::json errors = nlohmann::json::array();
  std::set<std::string> seen;
  std::vector<ConsentDraft> firsts;  // each number's first valid row
  for (const auto& row : upload.rows) {
    ++counts.rows;
    if (!row.draft) {
      ++counts.invalid;
      if (errors.size() < kMaxListedBatchErrors) errors.push_back(row.error);
    } else if (!seen.insert(row.draft->phone_number).second) {
      ++counts.duplicate_in_file;
    } else {
      firsts.push_back(*row.draft);
    }
  }
  counts.recorded = recordNewConsents(*sql, account, mode, firsts, id);
  std::string counts_text = counts.toJson().dump();
  *sql << "UPDATE consent_batches SET counts = :c::jsonb WHERE id = :id", soci::use(counts_text),
      soci::use(id);
  auto recorded = db::queryJson(
      *sql, "SELECT api_consent_batch(b, false)::text FROM consent_batches b WHERE b.id = :id", id);
  tx.commit();
  (*recorded)["errors"] = errors;
  return *recorded;
}

nlohmann::json batch(db::Database& db, const Caller& caller, const std::string& id) {
  db::Session sql(db);
  requireOwnBatch(*sql, caller, id);
  return *db::queryJson(*sql, kBatchWithDefaults, id);
}

nlohmann::json revokeBatch(db::Database& db, const Caller& caller, const std::string& id,
                           TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  requireOwnBatch(*sql, caller, id);
  std::string revoked_at, at = formatIso(now);
  soci::indicator revoked_ind = soci::i_null;
  *sql << "SELECT iso_ts(revoked_at) FROM consent_batches WHERE id = :id FOR UPDATE", soci::use(id),
      soci::into(revoked_at, revoked_ind);
  if (revoked_ind == soci::i_ok)
    throw ApiError(ErrorCode::CONFLICT, {{"reason", "already_revoked"}});
  int revoked = 0;
  *sql << "WITH revoked AS (UPDATE consents SET status = 'REVOKED', "
          "revoked_at = :now::timestamptz, revoked_reason = 'batch_revoked' "
          "WHERE consent_batch_id = :id AND status = 'ACTIVE' RETURNING 1) "
          "SELECT count(*) FROM revoked",
      soci::use(at), soci::use(id), soci::into(revoked);
  *sql << "UPDATE consent_batches SET revoked_at = :now::timestamptz, "
          "counts = jsonb_set(counts, '{revoked_by_review}', to_jsonb(:n::int)) WHERE id = :id",
      soci::use(at), soci::use(revoked), soci::use(id);
  auto revoked_batch = db::queryJson(*sql, kBatchWithDefaults, id);
  tx.commit();
  return *revoked_batch;
}

}  // namespace smsgw::compliance
