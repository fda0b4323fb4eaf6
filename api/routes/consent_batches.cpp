// Consent batches: many consents recorded at once, from JSON rows or an uploaded CSV (text/csv,
// with the defaults and attestation in the query). Each row is merged over the batch's
// defaults and read exactly like a single consent; services/compliance/consent_batches.h
// records them.
#include "services/compliance/consent_batches.h"

#include "api/routes/consent_fields.h"
#include "api/routes/routes.h"
#include "api/routes/validate.h"
#include "domain/csv_table.h"
#include "domain/errors.h"

namespace smsgw::api {
namespace {

constexpr size_t kMaxRows = 10'000;
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
    std::string value = queryTimeText(req, name);
    if (value.empty()) return std::nullopt;
    return value;
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

ApiResponse create(App& app, ApiRequest& req) {
  bool csv = req.header("content-type").value_or("").starts_with("text/csv");
  BatchInput input = csv ? readCsvBatch(req) : readJsonBatch(req);
  TimePoint now = app.clock.now();
  compliance::BatchUpload upload{input.file_name, input.defaults, {}};
  size_t row_number = 0;
  for (const auto& row : input.rows) {
    ++row_number;
    nlohmann::json merged = input.defaults;
    if (row.is_object()) merged.update(row);
    try {
      if (!row.is_object()) throw validationError("row", "must be an object");
      upload.rows.push_back({readConsentFields(merged, now), nullptr});
    } catch (const ApiError& e) {
      upload.rows.push_back({std::nullopt, rowError(row_number, e)});
    }
  }
  return ApiResponse::json(201, compliance::recordBatch(app.db, req.who(), upload));
}

ApiResponse get(App& app, ApiRequest& req) {
  return ApiResponse::json(200, compliance::batch(app.db, req.who(), req.params.at("id")));
}

ApiResponse revoke(App& app, ApiRequest& req) {
  return ApiResponse::json(
      200, compliance::revokeBatch(app.db, req.who(), req.params.at("id"), app.clock.now()));
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
