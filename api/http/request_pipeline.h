#pragma once
// What happens to every request between the edge's reading of it and the answer, apart from
// sockets: route matching (404, or 405 with Allow), the per-address limit of unauthenticated
// routes, the API key, the per-account rate limit, the body (FST_ERR_* answers), account state
// and permissions; then the route itself, run again as a freshly looked-up caller when a kept
// one turned out stale (caller_cache.h). Thread-safe: admit() runs on a reactor thread, run()
// there or on the slow lane.

#include <memory>
#include <optional>

#include "api/app.h"
#include "api/http/caller_cache.h"
#include "api/http/router.h"
#include "domain/request_rate.h"

namespace smsgw::api {

class RequestPipeline {
 public:
  RequestPipeline(App& app, Router router);

  // The route, the caller and the limits; throws ApiError. `rate` is set once the account is
  // known, so that a refusal still carries the rate headers.
  const Route& admit(ApiRequest& req, std::optional<RateDecision>& rate);
  // The body, the account's state and permissions, then the route admit() chose, for the
  // caller it set. Throws what they throw.
  ApiResponse run(ApiRequest& req, const Route& route);
  // A request the edge refused (a query that is not text, say) whose path names a route is
  // answered in that route's error shape (OAuth's, JSON-RPC's), as its documentation says.
  void useErrorDialectOfRoute(ApiRequest& req) const;
  // The spec's answer to an error: a domain error as the table says, anything else 500.
  ApiResponse answerForError(const ApiRequest& req, const std::exception_ptr& error) const;

 private:
  App& app_;
  Router router_;
  // Kept with every other API instance by default (request_limiters.h).
  std::unique_ptr<RequestLimiter> per_account_;
  std::unique_ptr<RequestLimiter> per_address_;  // routes with RouteOptions::limited_per_address
  CallerCache callers_;
  std::string mcp_resource_;  // the MCP endpoint's resource identifier (RFC 8707)
};

}  // namespace smsgw::api
