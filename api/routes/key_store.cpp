#include "api/routes/key_store.h"

#include <soci/soci.h>

#include "api/routes/json_rows.h"
#include "domain/ids.h"

namespace smsgw::api {

nlohmann::json insertApiKey(soci::session& sql, const std::string& account_id, KeyMode mode,
                            const std::optional<std::string>& label, const Permissions& permissions,
                            bool default_deny) {
  GeneratedKey key = generateApiKey(mode);
  std::string id = newId("key");
  std::string mode_text(toString(mode));
  std::string permissions_text = permissions.toJson().dump();
  int deny = default_deny ? 1 : 0;
  soci::indicator label_ind = label ? soci::i_ok : soci::i_null;
  std::string label_text = label.value_or("");
  sql << "INSERT INTO api_keys (id, account_id, key_hash, key_prefix, mode, label, permissions, "
         "default_deny) "
         "VALUES (:id, :account, :hash, :prefix, :mode, :label, :permissions::jsonb, "
         ":deny::int::boolean)",
      soci::use(id), soci::use(account_id), soci::use(key.hash), soci::use(key.key_prefix),
      soci::use(mode_text), soci::use(label_text, label_ind), soci::use(permissions_text),
      soci::use(deny);
  auto resource =
      queryJson(sql, "SELECT api_key_resource(k)::text FROM api_keys k WHERE k.id = :id", id);
  (*resource)["key"] = key.secret;
  return *resource;
}

}  // namespace smsgw::api
