#include "api/routes/account_path.h"

#include "api/http/api_types.h"
#include "domain/errors.h"

namespace smsgw::api {

void requireOwnAccountPath(const ApiRequest& req) {
  if (req.params.at("id") != req.who().account_id) {
    throw ApiError(ErrorCode::FORBIDDEN, {{"reason", "belongs_to_another_account"}});
  }
}

}  // namespace smsgw::api
