// Consent batches: many consents recorded at once, from JSON rows or an uploaded CSV (text/csv,
// with the defaults and attestation in the query). Each row is merged over the batch's
// defaults and read exactly like a single consent; rows that fail are counted and listed in
// `errors`, never recorded, and the rest commit together. Revoking a batch revokes the
// consents it recorded that are still active.
#include <soci/soci.h>

#include <set>

#include "api/routes/consent_fields.h"
#include "api/routes/json_rows.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/csv_table.h"
#include "domain/errors.h"
#include "domain/ids.h"

namespace smsgw::api {
namespace {

constexpr size_t kMaxRows = 10'000;
constexpr size_t kMaxListedErrors = 100;
constexpr const char* kDefaultFields[] = {
    "consent_type",      "source_description",    "source_ip", "source_url",
    "relationship_type", "last_transaction_date", "expires_at"};

struct BatchInput {
  std::optional<std::string> file_name;
  nlohmann::json defaults = nlohmann::json::object();
  nlohmann::json rows = nlohmann::json::array();
};

void requireAttested(bool attested) {
  if (!attested) {
    throw validationError("attested",
                          "must be true: you attest every consent in the batch was obtained "
                          "as CASL requires");
  }
}

// Defaults keep only the fields a row may inherit; consent_type is required.
nlohmann::json readDefaults(const nlohmann::json& given) {
  if (!given.is_object()) throw validationError("defaults", "must be an object");
  nlohmann::json defaults = nlohmann::json::object();
  for (const char* field : kDefaultFields) {
    if (auto value = optionalString(given, field, 2048)) defaults[field] = *value;
  }
  std::string type = defaults.value("consent_type", "");
  if (type != "express" && type != "implied") {
    throw validationError("defaults.consent_type", "is required: express or implied");
  }
  return defaults;
}

BatchInput readJsonBatch(const ApiRequest& req) {
  const auto& body = requireObjectBody(req);
  auto attested = optionalBool(body, "attested");
  if (!attested) throw validationError("attested", "is required");
  requireAttested(*attested);
  BatchInput input;
  input.file_name = optionalString(body, "file_name", 255);
  input.defaults = readDefaults(body.value("defaults", nlohmann::json()));
  if (!body.contains("rows") || !body["rows"].is_array()) {
    throw validationError("rows", "must be an array of consent rows");
  }
  if (body["rows"].size() > kMaxRows) {
    throw validationError("rows", "at most " + std::to_string(kMaxRows) + " rows per batch");
  }
  input.rows = body["rows"];
  return input;
}

BatchInput readCsvBatch(const ApiRequest& req) {
  auto query = [&](const char* name) -> std::optional<std::string> {
    auto it = req.query.find(name);
    if (it == req.query.end() || it->second.empty()) return std::nullopt;
    return it->second;
  };
  requireAttested(query("attested") == "true");
  BatchInput input;
  input.file_name = query("file_name");
  nlohmann::json given = nlohmann::json::object();
  for (const char* field : kDefaultFields) {
    if (auto value = query(field)) given[field] = *value;
  }
  input.defaults = readDefaults(given);
  try {
    input.rows = readCsvTable(req.raw_body, kMaxRows);
  } catch (const std::invalid_argument& e) {
    throw validationError("body", e.what());
  }
  return input;
}

struct Counts {
  int rows = 0, express = 0, implied = 0, already_recorded = 0, opted_out = 0,
      duplicate_in_file = 0, invalid = 0;
  nlohmann::json toJson() const {
    return {{"rows", rows},
            {"recorded", express + implied},
            {"express", express},
            {"implied", implied},
            {"already_recorded", already_recorded},
            {"opted_out", opted_out},
            {"revoked_by_review", 0},
            {"duplicate_in_file", duplicate_in_file},
            {"invalid", invalid}};
  }
};

nlohmann::json rowError(size_t row, const ApiError& error) {
  nlohmann::json entry = {{"row", row}, {"code", errorInfo(error.code()).name}};
  const auto& details = error.details();
  if (details.is_array() && !details.empty()) {
    entry["field"] = details[0].value("field", "");
    entry["message"] = details[0].value("message", "");
  } else {
    entry["message"] = errorInfo(error.code()).message_en;
  }
  return entry;
}

// What the account already holds for a row's number: an opt-out in force wins over any consent
// in a file; an ACTIVE consent of the same type makes the row a repeat.
enum class Standing { OptedOut, AlreadyRecorded, New };

Standing standingOf(soci::session& sql, const std::string& account, const std::string& mode,
                    const compliance::ConsentDraft& draft) {
  int opted_out = 0, recorded = 0;
  sql << "SELECT EXISTS (SELECT 1 FROM opt_outs WHERE account_id = :a AND mode = :m "
         "AND phone_number = :p AND reinstated_at IS NULL)::int, "
         "EXISTS (SELECT 1 FROM consents WHERE account_id = :a2 AND mode = :m2 "
         "AND phone_number = :p2 AND status = 'ACTIVE' AND consent_type = :t)::int",
      soci::use(account), soci::use(mode), soci::use(draft.phone_number), soci::use(account),
      soci::use(mode), soci::use(draft.phone_number), soci::use(draft.consent_type),
      soci::into(opted_out), soci::into(recorded);
  if (opted_out) return Standing::OptedOut;
  return recorded ? Standing::AlreadyRecorded : Standing::New;
}

ApiResponse create(App& app, ApiRequest& req) {
  bool csv = req.header("content-type").value_or("").starts_with("text/csv");
  BatchInput input = csv ? readCsvBatch(req) : readJsonBatch(req);
  const std::string& account = req.who().account_id;
  std::string mode(toString(req.who().mode));
  TimePoint now = app.clock.now();

  db::Session sql(app.db);
  soci::transaction tx(*sql);
  std::string id = newId("cb"), defaults = input.defaults.dump();
  std::string file_name = input.file_name.value_or("");
  soci::indicator file_ind = input.file_name ? soci::i_ok : soci::i_null;
  *sql << "INSERT INTO consent_batches (id, account_id, mode, source, file_name, attested, "
          "defaults, counts) VALUES (:id, :a, :m, 'api', :f, true, :d::jsonb, '{}'::jsonb)",
      soci::use(id), soci::use(account), soci::use(mode), soci::use(file_name, file_ind),
      soci::use(defaults);

  Counts counts;
  nlohmann::json errors = nlohmann::json::array();
  std::set<std::string> seen;
  for (const auto& row : input.rows) {
    size_t row_number = static_cast<size_t>(++counts.rows);
    nlohmann::json merged = input.defaults;
    if (row.is_object()) merged.update(row);
    compliance::ConsentDraft draft;
    try {
      if (!row.is_object()) throw validationError("row", "must be an object");
      draft = readConsentFields(merged, now);
    } catch (const ApiError& e) {
      ++counts.invalid;
      if (errors.size() < kMaxListedErrors) errors.push_back(rowError(row_number, e));
      continue;
    }
    if (!seen.insert(draft.phone_number).second) {
      ++counts.duplicate_in_file;
    } else if (Standing standing = standingOf(*sql, account, mode, draft);
               standing == Standing::OptedOut) {
      ++counts.opted_out;
    } else if (standing == Standing::AlreadyRecorded) {
      ++counts.already_recorded;
    } else {
      compliance::recordConsent(*sql, account, mode, draft, id);
      ++(draft.consent_type == "EXPRESS" ? counts.express : counts.implied);
    }
  }
  std::string counts_text = counts.toJson().dump();
  *sql << "UPDATE consent_batches SET counts = :c::jsonb WHERE id = :id", soci::use(counts_text),
      soci::use(id);
  auto batch = queryJson(
      *sql, "SELECT api_consent_batch(b, false)::text FROM consent_batches b WHERE b.id = :id", id);
  tx.commit();
  (*batch)["errors"] = errors;
  return ApiResponse::json(201, *batch);
}

// The batch's id, after checking it is the caller's (404 unknown or other mode, 403 another
// account's).
void requireOwnBatch(soci::session& sql, const ApiRequest& req) {
  std::string owner, mode;
  sql << "SELECT account_id, mode FROM consent_batches WHERE id = :id",
      soci::use(req.params.at("id")), soci::into(owner), soci::into(mode);
  requireOwnedBy(sql.got_data() ? std::optional(owner) : std::nullopt, req.who().account_id);
  if (mode != toString(req.who().mode)) throw ApiError(ErrorCode::NOT_FOUND);
}

constexpr const char* kBatchWithDefaults =
    "SELECT api_consent_batch(b, true)::text FROM consent_batches b WHERE b.id = :id";

ApiResponse get(App& app, ApiRequest& req) {
  db::Session sql(app.db);
  requireOwnBatch(*sql, req);
  return ApiResponse::json(200, *queryJson(*sql, kBatchWithDefaults, req.params.at("id")));
}

ApiResponse revoke(App& app, ApiRequest& req) {
  db::Session sql(app.db);
  soci::transaction tx(*sql);
  requireOwnBatch(*sql, req);
  const std::string& id = req.params.at("id");
  std::string revoked_at;
  soci::indicator revoked_ind = soci::i_null;
  *sql << "SELECT iso_ts(revoked_at) FROM consent_batches WHERE id = :id FOR UPDATE", soci::use(id),
      soci::into(revoked_at, revoked_ind);
  if (revoked_ind == soci::i_ok)
    throw ApiError(ErrorCode::CONFLICT, {{"reason", "already_revoked"}});
  int revoked = 0;
  *sql << "WITH revoked AS (UPDATE consents SET status = 'REVOKED', revoked_at = now(), "
          "revoked_reason = 'batch_revoked' WHERE consent_batch_id = :id AND status = 'ACTIVE' "
          "RETURNING 1) SELECT count(*) FROM revoked",
      soci::use(id), soci::into(revoked);
  *sql << "UPDATE consent_batches SET revoked_at = now(), "
          "counts = jsonb_set(counts, '{revoked_by_review}', to_jsonb(:n::int)) WHERE id = :id",
      soci::use(revoked), soci::use(id);
  auto batch = queryJson(*sql, kBatchWithDefaults, id);
  tx.commit();
  return ApiResponse::json(200, *batch);
}

}  // namespace

void addConsentBatchRoutes(Router& router, App& app) {
  RouteOptions upload = onSlowLane(needs("compliance:w"));  // up to 10,000 rows
  upload.accepts_csv = true;
  router.add("POST", "/v1/compliance/consent-batches", upload,
             [&app](ApiRequest& r) { return create(app, r); });
  router.add("GET", "/v1/compliance/consent-batches/{id}", needs("compliance:r"),
             [&app](ApiRequest& r) { return get(app, r); });
  router.add("POST", "/v1/compliance/consent-batches/{id}/revoke", needs("compliance:md"),
             [&app](ApiRequest& r) { return revoke(app, r); });
}

}  // namespace smsgw::api
