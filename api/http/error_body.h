#pragma once
// The one place that turns a domain error into the spec's error body.

#include <nlohmann/json.hpp>

#include "domain/errors.h"
#include "domain/locale.h"

namespace smsgw::api {

nlohmann::json errorBody(ErrorCode code, Language language,
                         const nlohmann::json& details = nullptr);

// OAuth's error name for a code (RFC 6749 5.2): the OAUTH_ rows by their name in lower case;
// any other refusal by its kind (temporarily_unavailable, server_error, invalid_request).
std::string oauthErrorName(ErrorCode code);
// The body /oauth/* answers with: {error, error_description (English: the RFC allows ASCII
// only), error_description_fr, details?}.
nlohmann::json oauthErrorBody(ErrorCode code, const nlohmann::json& details = nullptr);

}  // namespace smsgw::api
