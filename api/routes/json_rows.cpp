#include "api/routes/json_rows.h"

#include "api/http/api_types.h"
#include "domain/errors.h"

namespace smsgw::api {

nlohmann::json pageOfRecords(soci::session& sql, const std::string& select, const ApiRequest& req,
                             int limit, int offset,
                             const std::map<std::string, std::string>& filters) {
  return db::pageOfRecords(sql, select, req.who().account_id, std::string(toString(req.who().mode)),
                           limit, offset, filters);
}

void requireOwnedBy(const std::optional<std::string>& owner, const std::string& account_id) {
  if (!owner) throw ApiError(ErrorCode::NOT_FOUND);
  if (*owner != account_id)
    throw ApiError(ErrorCode::FORBIDDEN, {{"reason", "belongs_to_another_account"}});
}

void requireOwnAccountPath(const ApiRequest& req) {
  if (req.params.at("id") != req.who().account_id) {
    throw ApiError(ErrorCode::FORBIDDEN, {{"reason", "belongs_to_another_account"}});
  }
}

}  // namespace smsgw::api
