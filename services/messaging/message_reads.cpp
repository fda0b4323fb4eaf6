#include "services/messaging/message_reads.h"

#include <soci/soci.h>

#include "db/json_rows.h"
#include "domain/errors.h"
#include "domain/ownership.h"

namespace smsgw::messaging {

nlohmann::json message(db::Database& db, const Caller& caller, const std::string& id) {
  db::Session sql(db);
  std::string owner, mode;
  *sql << "SELECT account_id, mode FROM messages WHERE id = :id", soci::use(id), soci::into(owner),
      soci::into(mode);
  requireOwnedBy(sql->got_data() ? std::optional(owner) : std::nullopt, caller.account_id);
  if (mode != toString(caller.mode)) throw ApiError(ErrorCode::NOT_FOUND);
  return *db::queryJson(*sql, db::kMessageJson, id);
}

nlohmann::json messagePage(db::Database& db, const Caller& caller, const MessageFilter& filter,
                           int page, int limit) {
  std::string mode(toString(caller.mode));
  const std::string where =
      " FROM messages m WHERE m.account_id = :a AND m.mode = :mode AND (:status = '' OR m.status = "
      ":status2) "
      "AND (:direction = '' OR m.direction = :direction2) AND (:to = '' OR m.to_number = :to2) "
      "AND (:from = '' OR m.from_number = :from2) "
      "AND (:after = '' OR m.created_at >= NULLIF(:after2, '')::timestamptz) "
      "AND (:before = '' OR m.created_at < NULLIF(:before2, '')::timestamptz)";
  db::Session sql(db);
  long long total = 0;
  *sql << "SELECT count(*)" + where, soci::use(caller.account_id), soci::use(mode),
      soci::use(filter.status), soci::use(filter.status), soci::use(filter.direction),
      soci::use(filter.direction), soci::use(filter.to), soci::use(filter.to),
      soci::use(filter.from), soci::use(filter.from), soci::use(filter.created_after),
      soci::use(filter.created_after), soci::use(filter.created_before),
      soci::use(filter.created_before), soci::into(total);
  int offset = (page - 1) * limit;
  nlohmann::json data = nlohmann::json::array();
  soci::rowset<std::string> rows =
      (sql->prepare << "SELECT api_message(m)::text" + where +
                           " ORDER BY m.created_at DESC, m.id LIMIT :limit OFFSET :offset",
       soci::use(caller.account_id), soci::use(mode), soci::use(filter.status),
       soci::use(filter.status), soci::use(filter.direction), soci::use(filter.direction),
       soci::use(filter.to), soci::use(filter.to), soci::use(filter.from), soci::use(filter.from),
       soci::use(filter.created_after), soci::use(filter.created_after),
       soci::use(filter.created_before), soci::use(filter.created_before), soci::use(limit),
       soci::use(offset));
  for (const auto& text : rows) data.push_back(nlohmann::json::parse(text));
  long long pages = (total + limit - 1) / limit;
  return {{"data", data},
          {"meta", {{"page", page}, {"limit", limit}, {"total", total}, {"pages", pages}}}};
}

}  // namespace smsgw::messaging
