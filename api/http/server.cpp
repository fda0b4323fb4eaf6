#include "api/http/server.h"

#include <pistache/endpoint.h>
#include <pistache/http.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <cctype>
#include <sstream>

#include "api/http/auth.h"
#include "api/http/caller_cache.h"
#include "api/http/error_body.h"
#include "api/http/rate_limiter.h"
#include "domain/api_key.h"
#include "domain/clock.h"
#include "domain/errors.h"
#include "domain/ids.h"

namespace smsgw::api {

using namespace Pistache;

struct ApiServer::Dispatch {
  App& app;
  Router router;
  RateLimiter limiter;
  CallerCache callers;

  Dispatch(App& a, Router r)
      : app(a),
        router(std::move(r)),
        limiter(a.config.requests_per_second, std::chrono::seconds(1), a.clock),
        callers(a.db, a.config.key_cache_ttl, a.config.key_cache_capacity) {}
};

namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Pistache keeps registered headers (Authorization, Content-Type, …) typed and the rest raw;
// the routes see one flat map of lower-cased names.
std::map<std::string, std::string> collectHeaders(const Http::Request& request) {
  std::map<std::string, std::string> out;
  for (const auto& [name, raw] : request.headers().rawList()) out[lower(name)] = raw.value();
  for (const auto& header : request.headers().list()) {
    std::ostringstream value;
    header->write(value);
    out[lower(header->name())] = value.str();
  }
  return out;
}

std::map<std::string, std::string> collectQuery(const Http::Request& request) {
  std::map<std::string, std::string> out;
  for (const auto& name : request.query().parameters()) {
    auto value = request.query().get(name);
    out[percentDecode(name)] = value ? percentDecode(*value) : "";
  }
  return out;
}

bool isJsonContentType(const std::string& content_type) {
  std::string media = lower(content_type.substr(0, content_type.find(';')));
  while (!media.empty() && std::isspace(static_cast<unsigned char>(media.back()))) media.pop_back();
  return media == "application/json" ||
         (media.starts_with("application/") && media.ends_with("+json"));
}

bool hasBodyMethod(const std::string& method) {
  return method == "POST" || method == "PATCH" || method == "PUT";
}

bool isCsvContentType(const std::string& content_type) {
  return lower(content_type.substr(0, content_type.find(';'))).starts_with("text/csv");
}

// Reads and validates the body the way Fastify would (its FST_ERR_* codes are the spec's).
// Routes that take uploads also accept text/csv, left unparsed in raw_body.
void readBody(ApiRequest& req, const Http::Request& request, size_t max_bytes, bool accepts_csv) {
  req.raw_body = request.body();
  if (!hasBodyMethod(req.method)) return;
  auto content_type = req.header("content-type");
  bool json_type = content_type && isJsonContentType(*content_type);
  bool empty = req.raw_body.find_first_not_of(" \t\r\n") == std::string::npos;
  if (empty) {
    // Like Fastify: an empty body is no body, unless it claims to be JSON.
    if (json_type) throw ApiError(ErrorCode::FST_ERR_CTP_EMPTY_JSON_BODY);
    return;
  }
  bool csv_upload = accepts_csv && content_type && isCsvContentType(*content_type);
  if (!json_type && !csv_upload) throw ApiError(ErrorCode::FST_ERR_CTP_INVALID_MEDIA_TYPE);
  if (req.raw_body.size() > max_bytes) throw ApiError(ErrorCode::FST_ERR_CTP_BODY_TOO_LARGE);
  if (csv_upload) return;
  req.body = nlohmann::json::parse(req.raw_body, nullptr, false);
  if (req.body.is_discarded()) throw ApiError(ErrorCode::FST_ERR_CTP_INVALID_JSON_BODY);
}

void checkAccountState(const Caller& caller, const RouteOptions& options) {
  if ((caller.account_status == "SUSPENDED" || caller.account_status == "CLOSED") &&
      !options.handles_suspended_accounts) {
    throw ApiError(ErrorCode::FORBIDDEN,
                   {{"reason", caller.account_status == "SUSPENDED" ? "account_suspended"
                                                                    : "account_closed"}});
  }
  if (caller.live() && caller.account_status == "PENDING_PAYMENT" &&
      !options.allowed_before_payment) {
    throw ApiError(ErrorCode::PAYMENT_REQUIRED);
  }
  if (options.permission && !options.permission->satisfiedBy(caller.permissions)) {
    std::string letters;
    for (char c : options.permission->any_of_letters) {
      if (!letters.empty()) letters += " or ";
      letters += options.permission->resource + ":" + c;
    }
    throw ApiError(ErrorCode::FORBIDDEN, {{"required_permission", letters}});
  }
}

// A response header known only by name: Pistache writes typed headers, not raw ones.
class NamedHeader final : public Http::Header::Header {
 public:
  NamedHeader(std::string name, std::string value)
      : name_(std::move(name)), value_(std::move(value)) {}
  const char* name() const override { return name_.c_str(); }
  void write(std::ostream& os) const override { os << value_; }
  uint64_t hash() const override { return Http::Header::detail::hash(name_.c_str()); }

 private:
  std::string name_;
  std::string value_;
};

// Access lines are whole JSON objects, one per request, on stdout (application logs go to stderr).
spdlog::logger& accessLogger() {
  static std::shared_ptr<spdlog::logger> logger = [] {
    auto created = spdlog::stdout_logger_mt("access");
    created->set_pattern("%v");
    created->flush_on(spdlog::level::info);
    return created;
  }();
  return *logger;
}

class Handler final : public Http::Handler {
 public:
  HTTP_PROTOTYPE(Handler)

  explicit Handler(std::shared_ptr<ApiServer::Dispatch> dispatch)
      : dispatch_(std::move(dispatch)) {}

  void onRequest(const Http::Request& request, Http::ResponseWriter writer) override {
    auto started = std::chrono::steady_clock::now();
    ApiRequest req;
    req.method = Http::methodString(request.method());
    req.path = request.resource();
    req.headers = collectHeaders(request);
    req.query = collectQuery(request);
    req.language = preferredLanguage(req.header("accept-language").value_or(""));
    req.client_ip = request.address().host();
    std::string request_id = req.header("x-request-id").value_or(newId("req"));

    ApiResponse response;
    std::optional<RateDecision> rate;
    try {
      response = dispatch(req, request, rate);
    } catch (const ApiError& error) {
      response = ApiResponse::json(errorInfo(error.code()).http_status,
                                   errorBody(error.code(), req.language, error.details()));
      if (error.retryAfterSeconds())
        response.headers.emplace_back("Retry-After", std::to_string(*error.retryAfterSeconds()));
    } catch (const std::exception& e) {
      spdlog::error("request {} {} failed: {}", req.method, req.path, e.what());
      response = ApiResponse::json(500, errorBody(ErrorCode::INTERNAL_ERROR, req.language));
    }
    if (rate) {
      response.headers.emplace_back("X-RateLimit-Limit", std::to_string(rate->limit));
      response.headers.emplace_back("X-RateLimit-Remaining", std::to_string(rate->remaining));
      response.headers.emplace_back("X-RateLimit-Reset", std::to_string(rate->reset_unix));
    }
    response.headers.emplace_back("X-Request-Id", request_id);
    size_t bytes_out = write(request, writer, response);
    accessLog(req, response.status, request_id, started, bytes_out);
  }

 private:
  ApiResponse dispatch(ApiRequest& req, const Http::Request& request,
                       std::optional<RateDecision>& rate) {
    auto match = dispatch_->router.match(req.method, req.path);
    if (!match.route)
      throw ApiError(ErrorCode::NOT_FOUND, {{"route", req.method + " " + req.path}});
    req.params = std::move(match.params);
    const Route& route = *match.route;
    if (!route.options.authenticated) {
      readBody(req, request, dispatch_->app.config.max_body_bytes, route.options.accepts_csv);
      return route.handler(req);
    }
    auto key = presentedApiKey(req.header("authorization"), req.header("x-api-key"));
    if (!key) throw ApiError(ErrorCode::UNAUTHORIZED);
    dispatch_->callers.identify(req, *key, route.options.confirms_caller);
    try {
      return serveCaller(req, request, rate, route);
    } catch (const CallerChanged&) {
      dispatch_->callers.lookUp(req, *key);
    } catch (...) {
      // A guessed caller was answered before its route confirmed it. The answer stands only if
      // a lookup now finds the same caller; a revoked key answers 401 here instead.
      if (!req.unconfirmed_key_hash) throw;
      Caller guessed = *req.caller;
      dispatch_->callers.lookUp(req, *key);
      if (*req.caller == guessed) throw;
    }
    // The guess was wrong (and its transaction rolled back): the route runs again as the
    // caller the lookup found, so every answer is the one an uncached lookup would give.
    return serveCaller(req, request, rate, route);
  }

  ApiResponse serveCaller(ApiRequest& req, const Http::Request& request,
                          std::optional<RateDecision>& rate, const Route& route) {
    if (!rate) rate = dispatch_->limiter.hit(req.caller->account_id);  // once per request
    if (!rate->allowed) throw ApiError(ErrorCode::RATE_LIMITED, nullptr, rate->retry_after_seconds);
    readBody(req, request, dispatch_->app.config.max_body_bytes, route.options.accepts_csv);
    checkAccountState(*req.caller, route.options);
    return route.handler(req);
  }

  size_t write(const Http::Request& request, Http::ResponseWriter& writer,
               const ApiResponse& response) {
    // Pistache answers "Connection: Close" unless the client asked for keep-alive; HTTP/1.1
    // means keep-alive by default (RFC 9112), so say so unless the client asked to close.
    auto connection = request.headers().tryGet<Http::Header::Connection>();
    if (request.version() == Http::Version::Http11 &&
        (!connection || connection->control() != Http::ConnectionControl::Close)) {
      writer.headers().remove<Http::Header::Connection>();
      writer.headers().add<Http::Header::Connection>(Http::ConnectionControl::KeepAlive);
    }
    for (const auto& [name, value] : response.headers)
      writer.headers().add(std::make_shared<NamedHeader>(name, value));
    auto code = static_cast<Http::Code>(response.status);
    if (!response.has_body) {
      writer.send(code);
      return 0;
    }
    std::string body = response.body.dump();
    writer.send(code, body, MIME(Application, Json));
    return body.size();
  }

  void accessLog(const ApiRequest& req, int status, const std::string& request_id,
                 std::chrono::steady_clock::time_point started, size_t bytes_out) {
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
            .count();
    nlohmann::json line = {{"ts", formatIso(std::chrono::system_clock::now())},
                           {"type", "access"},
                           {"request_id", request_id},
                           {"method", req.method},
                           {"path", req.path},
                           {"status", status},
                           {"duration_ms", ms},
                           {"bytes_in", req.raw_body.size()},
                           {"bytes_out", bytes_out},
                           {"ip", req.client_ip}};
    if (req.caller) {
      line["account_id"] = req.caller->account_id;
      line["key_id"] = req.caller->key_id;
      line["mode"] = toString(req.caller->mode);
    }
    accessLogger().info(line.dump());
  }

  std::shared_ptr<ApiServer::Dispatch> dispatch_;
};

}  // namespace

ApiServer::ApiServer(App& app, Router router)
    : dispatch_(std::make_shared<Dispatch>(app, std::move(router))) {}

ApiServer::~ApiServer() {
  shutdown();
}

void ApiServer::start() {
  const auto& config = dispatch_->app.config;
  Address address(config.host, Port(static_cast<uint16_t>(config.port)));
  endpoint_ = std::make_unique<Http::Endpoint>(address);
  // Pistache's own limit answers in plain text, so it sits well above ours: requests between
  // the two get the spec's 413 body.
  auto options = Http::Endpoint::options()
                     .threads(config.threads)
                     .flags(Tcp::Options::ReuseAddr)
                     .maxRequestSize(config.max_body_bytes * 8 + 64 * 1024)
                     .keepaliveTimeout(std::chrono::seconds(75));
  endpoint_->init(options);
  endpoint_->setHandler(Http::make_handler<Handler>(dispatch_));
  endpoint_->serveThreaded();
}

void ApiServer::shutdown() {
  if (endpoint_) {
    endpoint_->shutdown();
    endpoint_.reset();
  }
}

uint16_t ApiServer::port() const {
  return endpoint_ ? static_cast<uint16_t>(endpoint_->getPort()) : 0;
}

}  // namespace smsgw::api
