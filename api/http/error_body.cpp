#include "api/http/error_body.h"

#include <cctype>

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

std::string oauthErrorName(ErrorCode code) {
  const ErrorInfo& info = errorInfo(code);
  constexpr std::string_view kPrefix = "OAUTH_";
  if (info.name.starts_with(kPrefix)) {
    std::string name(info.name.substr(kPrefix.size()));
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return name;
  }
  if (info.http_status == 429 || info.http_status == 503) return "temporarily_unavailable";
  if (info.http_status >= 500) return "server_error";
  return "invalid_request";
}

nlohmann::json oauthErrorBody(ErrorCode code, const nlohmann::json& details) {
  const ErrorInfo& info = errorInfo(code);
  nlohmann::json body = {{"error", oauthErrorName(code)},
                         {"error_description", info.message_en},
                         {"error_description_fr", info.message_fr}};
  if (!details.is_null()) body["details"] = details;
  return body;
}

}  // namespace smsgw::api
