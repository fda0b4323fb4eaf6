#include "services/accounts/restore_trail.h"

#include <soci/soci.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace smsgw::accounts {

TrailRecord parseTrailRecord(const std::string& payload) {
  auto doc = nlohmann::json::parse(payload, nullptr, false);
  if (!doc.is_object() || doc.value("v", 0) != 1 ||
      !doc.value("type", nlohmann::json()).is_string())
    throw std::invalid_argument("not an accounts.trail record");
  auto text = [&](const char* name) {
    const auto& value = doc.value(name, nlohmann::json());
    return value.is_string() ? value.get<std::string>() : std::string();
  };
  TrailRecord record{text("type"), text("account_id"),   text("key_id"),
                     text("kind"), text("reference_id"), 0,
                     text("at")};
  if (doc.value("amount_cents", nlohmann::json()).is_number_integer())
    record.amount_cents = doc["amount_cents"].get<long long>();
  return record;
}

TrailFindings judgeTrailAfterRestore(db::Database& db, const std::vector<TrailRecord>& records) {
  TrailFindings findings;
  if (records.empty()) return findings;
  nlohmann::json rows = nlohmann::json::array();
  for (const TrailRecord& record : records) {
    rows.push_back({{"type", record.type},
                    {"account_id", record.account_id},
                    {"key_id", record.key_id},
                    {"kind", record.kind},
                    {"reference_id", record.reference_id}});
  }
  std::string batch = rows.dump();
  std::vector<int> present(records.size()), active(records.size());
  db::Session sql(db);
  // Per record, in the order given: is what it names here, and is a key it says was revoked
  // still active here.
  *sql << "SELECT CASE e.doc ->> 'type' "
          "WHEN 'account.created' THEN EXISTS (SELECT 1 FROM accounts a WHERE a.id = "
          "e.doc ->> 'account_id') "
          "WHEN 'ledger_entry' THEN EXISTS (SELECT 1 FROM ledger_entries l WHERE l.kind = "
          "e.doc ->> 'kind' AND l.reference_id = e.doc ->> 'reference_id') "
          "ELSE EXISTS (SELECT 1 FROM api_keys k WHERE k.id = e.doc ->> 'key_id') END::int, "
          "(e.doc ->> 'type' = 'api_key.revoked' AND EXISTS (SELECT 1 FROM api_keys k WHERE "
          "k.id = e.doc ->> 'key_id' AND k.revoked_at IS NULL))::int "
          "FROM jsonb_array_elements(:batch::jsonb) WITH ORDINALITY AS e(doc, n) ORDER BY e.n",
      soci::use(batch, "batch"), soci::into(present), soci::into(active);
  for (size_t i = 0; i < records.size(); ++i) {
    const TrailRecord& record = records[i];
    if (active[i]) findings.keys_active_again.push_back(record);
    if (present[i]) continue;
    if (record.type == "account.created") findings.missing_accounts.push_back(record);
    if (record.type == "api_key.created") findings.missing_keys.push_back(record);
    if (record.type == "ledger_entry") findings.missing_ledger_entries.push_back(record);
  }
  return findings;
}

bool revokeAgainAfterRestore(db::Database& db, const TrailRecord& revoked) {
  db::Session sql(db);
  int changed = 0;
  *sql << "WITH r AS (UPDATE api_keys SET revoked_at = :at::timestamptz WHERE id = :id AND "
          "revoked_at IS NULL RETURNING 1) SELECT count(*) FROM r",
      soci::use(revoked.at, "at"), soci::use(revoked.key_id, "id"), soci::into(changed);
  return changed == 1;
}

}  // namespace smsgw::accounts
