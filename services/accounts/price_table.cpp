#include "services/accounts/price_table.h"

#include "db/json_rows.h"

namespace smsgw::accounts {

nlohmann::json priceTable(db::Database& db) {
  db::Session sql(db);
  return *db::queryJson(
      *sql,
      "SELECT jsonb_build_object('currency', 'CAD', 'prices', COALESCE(jsonb_agg("
      "jsonb_build_object('code', code, 'cents', cents, 'unit', unit, 'description', description) "
      "ORDER BY code), '[]'::jsonb))::text FROM prices");
}

}  // namespace smsgw::accounts
