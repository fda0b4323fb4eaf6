#include "api/http/request_limiters.h"

#include "services/limits/shared_request_limiter.h"

namespace smsgw::api {

std::unique_ptr<RequestLimiter> requestLimiter(App& app, const char* name, int default_limit,
                                               std::chrono::milliseconds window) {
  if (app.config.request_limits_per_process)
    return std::make_unique<ProcessRequestLimiter>(default_limit, window, app.clock);
  return std::make_unique<limits::SharedRequestLimiter>(app.db, name, default_limit, window,
                                                        app.clock);
}

}  // namespace smsgw::api
