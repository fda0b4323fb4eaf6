#pragma once
// The one place that turns a domain error into the spec's error body.

#include <nlohmann/json.hpp>

#include "domain/errors.h"
#include "domain/locale.h"

namespace smsgw::api {

nlohmann::json errorBody(ErrorCode code, Language language,
                         const nlohmann::json& details = nullptr);

}  // namespace smsgw::api
