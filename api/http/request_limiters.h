#pragma once
// The API's request limits, kept where API_REQUEST_LIMITS says: "shared" (the default) in
// PostgreSQL for every instance together (services/limits/shared_request_limiter.h), "process"
// in this instance alone (domain/request_rate.h; one instance, or a benchmark's other side).

#include <chrono>
#include <memory>

#include "api/app.h"
#include "domain/request_rate.h"

namespace smsgw::api {

// `name` keeps the limit's keys apart from another limit's ("account", "address", ...).
std::unique_ptr<RequestLimiter> requestLimiter(App& app, const char* name, int default_limit,
                                               std::chrono::milliseconds window);

}  // namespace smsgw::api
