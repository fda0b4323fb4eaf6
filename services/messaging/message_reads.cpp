#include "services/messaging/message_reads.h"

#include <soci/soci.h>

#include "db/json_rows.h"
#include "domain/errors.h"
#include "domain/ownership.h"

namespace smsgw::messaging {

nlohmann::json message(db::Database& db, const Caller& caller, const std::string& id) {
  db::Session sql(db);
  std::string owner, mode;
  *sql << "SELECT account_id, mode FROM messages WHERE id = :id", soci::use(id, "id"),
      soci::into(owner), soci::into(mode);
  requireOwnedBy(sql->got_data() ? std::optional(owner) : std::nullopt, caller.account_id);
  if (mode != toString(caller.mode)) throw ApiError(ErrorCode::NOT_FOUND);
  return *db::queryJson(*sql, db::kMessageJson, id);
}

nlohmann::json messagePage(db::Database& db, const Caller& caller, const MessageFilter& filter,
                           int page, int limit) {
  std::string mode(toString(caller.mode));
  // An empty filter matches every message.
  const db::NamedValues filters = {{"status", filter.status},
                                   {"direction", filter.direction},
                                   {"to", filter.to},
                                   {"from", filter.from},
                                   {"after", filter.created_after},
                                   {"before", filter.created_before}};
  const std::string where =
      " FROM messages m WHERE m.account_id = :account AND m.mode = :mode "
      "AND (:status = '' OR m.status = :status) "
      "AND (:direction = '' OR m.direction = :direction) AND (:to = '' OR m.to_number = :to) "
      "AND (:from = '' OR m.from_number = :from) "
      "AND (:after = '' OR m.created_at >= NULLIF(:after, '')::timestamptz) "
      "AND (:before = '' OR m.created_at < NULLIF(:before, '')::timestamptz)";
  db::Session sql(db);
  db::NamedValues counted = filters;
  counted.emplace("account", caller.account_id);
  counted.emplace("mode", mode);
  long long total = db::countRows(*sql, "SELECT count(*)" + where, counted);
  int offset = (page - 1) * limit;
  nlohmann::json data =
      db::pageOfRecords(*sql,
                        "SELECT api_message(m)::text" + where +
                            " ORDER BY m.created_at DESC, m.id LIMIT :limit OFFSET :offset",
                        caller.account_id, mode, limit, offset, filters);
  long long pages = (total + limit - 1) / limit;
  return {{"data", data},
          {"meta", {{"page", page}, {"limit", limit}, {"total", total}, {"pages", pages}}}};
}

}  // namespace smsgw::messaging
