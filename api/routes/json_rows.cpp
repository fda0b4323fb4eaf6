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

void requireOwnAccountPath(const ApiRequest& req) {
  if (req.params.at("id") != req.who().account_id) {
    throw ApiError(ErrorCode::FORBIDDEN, {{"reason", "belongs_to_another_account"}});
  }
}

}  // namespace smsgw::api
