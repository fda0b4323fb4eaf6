#include "api/http/request_pipeline.h"

#include <spdlog/spdlog.h>

#include "api/http/client_address.h"
#include "api/http/edge_request.h"
#include "api/http/error_body.h"
#include "api/http/presented_key.h"
#include "api/http/request_limiters.h"
#include "db/error_text.h"
#include "domain/errors.h"
#include "services/accounts/key_callers.h"

namespace smsgw::api {
namespace {

// A restart of PostgreSQL takes seconds; a client that comes back after this finds it up.
constexpr int kDatabaseRetryAfterSeconds = 5;

std::string mcpChallenge(const ApiConfig& config, ErrorCode code) {
  std::string challenge = "Bearer resource_metadata=\"" + config.public_base_url +
                          "/.well-known/oauth-protected-resource/mcp\"";
  if (code == ErrorCode::API_KEY_REVOKED) challenge += ", error=\"invalid_token\"";
  return challenge;
}

std::string joined(const std::vector<std::string>& methods) {
  std::string out;
  for (const auto& method : methods) out += (out.empty() ? "" : ", ") + method;
  return out;
}

}  // namespace

RequestPipeline::RequestPipeline(App& app, Router router)
    : app_(app),
      router_(std::move(router)),
      per_account_(
          requestLimiter(app, "account", app.config.requests_per_second, std::chrono::seconds(1))),
      per_address_(requestLimiter(app, "address", app.config.public_requests_per_minute,
                                  std::chrono::minutes(1))),
      callers_(app.db, app.clock, app.config.key_cache_ttl, app.config.key_cache_capacity),
      mcp_resource_(app.config.public_base_url + "/mcp") {}

const Route& RequestPipeline::admit(ApiRequest& req, std::optional<RateDecision>& rate) {
  auto match = router_.match(req.method, req.path);
  if (!match.route && !match.allowed_methods.empty()) {
    throw ApiError(ErrorCode::METHOD_NOT_ALLOWED, {{"allowed", match.allowed_methods}});
  }
  if (!match.route) throw ApiError(ErrorCode::NOT_FOUND, {{"route", req.method + " " + req.path}});
  req.params = std::move(match.params);
  const Route& route = *match.route;
  req.route = route.pattern;
  req.error_dialect = route.options.errors;
  if (!route.options.authenticated) {
    if (route.options.limited_per_address) {
      RateDecision decision = per_address_->hit(addressKey(req.client_ip));
      if (!decision.allowed)
        throw ApiError(ErrorCode::RATE_LIMITED, {{"limit_per_minute", decision.limit}},
                       decision.retry_after_seconds);
    }
    readBody(req, app_.config.max_body_bytes,
             {route.options.accepts_csv, route.options.accepts_form});
    return route;
  }
  auto key = presentedKey(req, app_.config.secureCookies());
  if (!key) throw ApiError(ErrorCode::UNAUTHORIZED);
  callers_.identify(req, key->secret, route.options.confirms_caller);
  // RFC 8707: a token approved for the MCP endpoint serves it alone.
  if (req.caller->resource == mcp_resource_ && route.options.errors != ErrorDialect::McpJsonRpc)
    throw ApiError(ErrorCode::UNAUTHORIZED,
                   {{"reason", "token_for_another_resource"}, {"resource", *req.caller->resource}});
  rate =
      per_account_->hit(req.caller->account_id,
                        req.caller->requests_per_second.value_or(app_.config.requests_per_second));
  if (!rate->allowed) throw ApiError(ErrorCode::RATE_LIMITED, nullptr, rate->retry_after_seconds);
  return route;
}

ApiResponse RequestPipeline::run(ApiRequest& req, const Route& route) {
  size_t max_body = app_.config.max_body_bytes;
  if (!route.options.authenticated) return route.handler(req);
  // What depends on the caller is answered for the caller admit() found, which may be a kept
  // guess: everything below is checked again if the guess turns out wrong.
  auto serve = [&] {
    readBody(req, max_body, {route.options.accepts_csv, route.options.accepts_form});
    checkCallerMayUse(*req.caller, route.options);
    return route.handler(req);
  };
  try {
    return serve();
  } catch (const MoveToSlowLane&) {
    throw;  // nothing was answered: the request runs again from the start
  } catch (const accounts::CallerChanged&) {
    callers_.lookUp(req, presentedKey(req, app_.config.secureCookies())->secret);
  } catch (...) {
    // A guessed caller was answered before its route confirmed it. The answer stands only if
    // a lookup now finds the same caller; a revoked key answers 401 here instead.
    if (!req.unconfirmed_key_hash) throw;
    Caller guessed = *req.caller;
    callers_.lookUp(req, presentedKey(req, app_.config.secureCookies())->secret);
    if (*req.caller == guessed) throw;
  }
  // The guess was wrong (and its transaction rolled back): the route runs again as the caller
  // the lookup found, so every answer is the one an uncached lookup would give.
  return serve();
}

void RequestPipeline::useErrorDialectOfRoute(ApiRequest& req) const {
  if (req.path.empty()) return;  // refused before its target was read
  auto match = router_.match(req.method, req.path);
  if (match.route) req.error_dialect = match.route->options.errors;
}

ApiResponse RequestPipeline::answerForError(const ApiRequest& req,
                                            const std::exception_ptr& error) const {
  try {
    std::rethrow_exception(error);
  } catch (const ApiError& e) {
    auto response = ApiResponse::json(errorInfo(e.code()).http_status,
                                      errorBody(e.code(), req.language, e.details()));
    switch (req.error_dialect) {
      case ErrorDialect::Spec:
        break;
      case ErrorDialect::OAuth:
        if (response.status == 422) response.status = 400;  // OAuth's invalid_request
        response.body = oauthErrorBody(e.code(), e.details());
        response.headers.emplace_back("Cache-Control", "no-store");
        break;
      case ErrorDialect::McpJsonRpc:
        if (e.code() == ErrorCode::FST_ERR_CTP_INVALID_JSON_BODY)
          response.body = {{"jsonrpc", "2.0"},
                           {"id", nullptr},
                           {"error", {{"code", -32700}, {"message", "Parse error"}}}};
        // JSON the body reader refuses (a NUL in a string): no request JSON-RPC can answer.
        if (e.code() == ErrorCode::VALIDATION_ERROR) {
          response.status = 400;
          response.body = {{"jsonrpc", "2.0"},
                           {"id", nullptr},
                           {"error", {{"code", -32600}, {"message", "Invalid Request"}}}};
        }
        // An MCP client learns from a 401 where to get a token (RFC 9728 5.1).
        if (response.status == 401)
          response.headers.emplace_back("WWW-Authenticate", mcpChallenge(app_.config, e.code()));
        break;
    }
    if (e.retryAfterSeconds())
      response.headers.emplace_back("Retry-After", std::to_string(*e.retryAfterSeconds()));
    if (e.code() == ErrorCode::METHOD_NOT_ALLOWED)
      response.headers.emplace_back("Allow",
                                    joined(e.details()["allowed"].get<std::vector<std::string>>()));
    return response;
  } catch (const std::exception& e) {
    // The database away (a restart, a lost connection) is no fault of the request: the client
    // is told to come back, and the pool reconnects on the next lease.
    if (db::isTransient(e)) {
      spdlog::warn("request {} {}: the database is unavailable: {}", req.method, req.path,
                   db::describeError(e));
      return answerForError(req, std::make_exception_ptr(ApiError(ErrorCode::SERVICE_UNAVAILABLE,
                                                                  {{"reason", "database"}},
                                                                  kDatabaseRetryAfterSeconds)));
    }
    spdlog::error("request {} {} failed: {}", req.method, req.path, db::describeError(e));
  } catch (...) {
    spdlog::error("request {} {} failed with a non-standard exception", req.method, req.path);
  }
  if (req.error_dialect == ErrorDialect::OAuth)
    return ApiResponse::json(500, oauthErrorBody(ErrorCode::INTERNAL_ERROR));
  return ApiResponse::json(500, errorBody(ErrorCode::INTERNAL_ERROR, req.language));
}

}  // namespace smsgw::api
