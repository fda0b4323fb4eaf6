#include "api/http/error_body.h"

namespace smsgw::api {

nlohmann::json errorBody(ErrorCode code, Language language, const nlohmann::json& details) {
  const ErrorInfo& info = errorInfo(code);
  nlohmann::json body = {
      {"code", info.name},
      {"message", language == Language::French ? info.message_fr : info.message_en},
      {"messageEn", info.message_en},
      {"messageFr", info.message_fr},
      {"statusCode", info.http_status},
  };
  if (!details.is_null()) body["details"] = details;
  return body;
}

}  // namespace smsgw::api
