#pragma once
// Maps method + path to a route. Patterns use {name} segments: /v1/webhooks/{id}.
// Built once at start-up, then read-only (thread-safe for lookups).

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "api/http/api_types.h"
#include "domain/permissions.h"

namespace smsgw::api {

using RouteHandler = std::function<ApiResponse(ApiRequest&)>;

struct RouteOptions {
  bool authenticated = true;
  std::optional<PermissionRequirement> permission;  // e.g. "messages:w"
  bool allowed_before_payment = false;              // LIVE keys may call it before the first top-up
  bool accepts_csv = false;  // a text/csv body reaches the handler as raw_body (uploads)
  // An application/x-www-form-urlencoded body reaches the handler as ApiRequest::form (the
  // OAuth endpoints, and the consent page's form).
  bool accepts_form = false;
  // Suspended or closed accounts reach the handler, which answers for them (a dead-letter
  // replay: 409 ACCOUNT_SUSPENDED) instead of the usual 403 FORBIDDEN.
  bool handles_suspended_accounts = false;
  // The handler confirms the caller in its own transaction (accounts::confirmCaller,
  // services/accounts/key_callers.h), so the edge may hand it a cached caller (caller_cache.h) and
  // spare it the key lookup.
  bool confirms_caller = false;
  // The handler waits on something slow (the carrier, a customer's server, DNS, password
  // hashing, a large batch): it runs on the slow lane (slow_lane.h), not a reactor thread.
  bool slow = false;
  // Unauthenticated and costly (signup): limited per client address.
  bool limited_per_address = false;
  ErrorDialect errors = ErrorDialect::Spec;  // how its refusals are written (api_types.h)
};

struct Route {
  std::string method;
  std::string pattern;
  std::vector<std::string> segments;
  RouteOptions options;
  RouteHandler handler;
};

class Router {
 public:
  void add(std::string method, std::string pattern, RouteOptions options, RouteHandler handler);

  struct Match {
    const Route* route = nullptr;  // null: no route for this path and method
    std::map<std::string, std::string> params;
    // When no route matched: the methods the path does accept (405 with Allow), if any.
    std::vector<std::string> allowed_methods;
  };
  // HEAD finds the GET route of its path (and a 405's allowed methods list HEAD beside GET).
  Match match(const std::string& method, const std::string& path) const;
  const std::vector<Route>& routes() const { return routes_; }

 private:
  std::vector<Route> routes_;
};

// Decodes %XX escapes (path parameters and query strings); '+' stays a plus.
std::string percentDecode(const std::string& in);

// The account's state and the key's permissions against what a route asks (403 FORBIDDEN with
// details.reason or required_permission, 402 PAYMENT_REQUIRED). Throws ApiError.
void checkCallerMayUse(const Caller& caller, const RouteOptions& options);

// Convenience for route tables: options with a permission string such as "messages:w".
RouteOptions needs(const char* permission);
// The same options for a handler that waits on something slow (RouteOptions::slow).
RouteOptions onSlowLane(RouteOptions options);

}  // namespace smsgw::api
