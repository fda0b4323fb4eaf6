#include "services/contacts/fences.h"

#include <soci/soci.h>

#include "domain/errors.h"

namespace smsgw::contacts {
namespace {

const char* kindName(Referenced kind) {
  switch (kind) {
    case Referenced::Contact:
      return "contact";
    case Referenced::Group:
      return "group";
    case Referenced::List:
      return "list";
  }
  return "";
}

}  // namespace

void requireMayChange(soci::session& sql, const Caller& caller, Referenced kind,
                      const std::string& id) {
  if (caller.live() && !caller.fenced) return;  // nothing to ask
  std::string kind_text = kindName(kind);
  int own_fence = 0, live_fence = 0;
  sql << "WITH reached AS (SELECT lists_referencing(:kind, :id) AS list_id) "
         "SELECT EXISTS (SELECT 1 FROM api_keys k WHERE k.id = :key AND (k.allow_list_id IN "
         "(SELECT list_id FROM reached) OR k.deny_list_id IN (SELECT list_id FROM reached)))::int, "
         "EXISTS (SELECT 1 FROM api_keys k WHERE k.account_id = :account AND k.mode = 'LIVE' AND "
         "k.revoked_at IS NULL AND (k.allow_list_id IN (SELECT list_id FROM reached) OR "
         "k.deny_list_id IN (SELECT list_id FROM reached)))::int",
      soci::use(kind_text, "kind"), soci::use(id, "id"), soci::use(caller.key_id, "key"),
      soci::use(caller.account_id, "account"), soci::into(own_fence), soci::into(live_fence);
  if (caller.fenced && own_fence) throw ApiError(ErrorCode::KEY_FENCED);
  if (!caller.live() && live_fence) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
}

}  // namespace smsgw::contacts
