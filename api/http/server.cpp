#include "api/http/server.h"

#include <pistache/endpoint.h>
#include <pistache/http.h>
#include <pistache/peer.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include "adapters/log.h"
#include "adapters/metrics.h"
#include "api/http/answer_bytes.h"
#include "api/http/client_address.h"
#include "api/http/client_connection.h"
#include "api/http/edge_request.h"
#include "api/http/error_body.h"
#include "api/http/forwarded_client.h"
#include "api/http/request_pipeline.h"
#include "api/http/slow_lane.h"
#include "domain/clock.h"
#include "domain/errors.h"
#include "domain/ids.h"

namespace smsgw::api {

using namespace Pistache;

// Requests waiting for the slow lane in all, whatever the account: each holds its body (up to
// 1 MiB), so this also bounds the memory they take.
constexpr size_t kSlowLaneQueue = 256;

// Strangers' slow requests wait in all at most this many; each holds its body too.
constexpr size_t kAnonymousLaneQueue = 64;

struct ApiServer::Dispatch {
  App& app;
  RequestPipeline pipeline;
  SlowLane slow_lane;       // accounts' slow requests, one tenant per account
  SlowLane anonymous_lane;  // before authentication, one tenant per client address (/64)
  ConnectionSweeper sweeper;
  FramerLimits framer_limits;
  ConnectionTimes times;

  Dispatch(App& a, Router router)
      : app(a),
        pipeline(a, std::move(router)),
        slow_lane({a.config.slow_lane_threads, a.config.slow_requests_per_tenant,
                   a.config.slow_requests_waiting_per_tenant, kSlowLaneQueue}),
        anonymous_lane({a.config.anonymous_lane_threads, a.config.slow_requests_per_address,
                        a.config.slow_requests_waiting_per_address, kAnonymousLaneQueue}),
        sweeper(std::chrono::milliseconds(250)),
        framer_limits{a.config.max_header_bytes, a.config.max_body_bytes, a.config.header_timeout,
                      a.config.body_timeout},
        times{a.config.keep_alive_timeout, std::chrono::milliseconds(2000)} {}
};

namespace {

constexpr const char* kConnectionData = "smsgw.connection";
// Pistache's own timeouts would measure from its parser, which the edge never feeds: they are
// pushed out of the way, and ClientConnection keeps the edge's (header, body, keep-alive).
constexpr auto kPistacheTimeoutsOff = std::chrono::hours(24 * 365);

std::shared_ptr<ClientConnection> connectionOf(const std::shared_ptr<Tcp::Peer>& peer) {
  return std::static_pointer_cast<ClientConnection>(peer->tryGetData(kConnectionData));
}

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

// JSON text of any value, without throwing: a string that is not UTF-8 is written with
// replacement characters (the edge refuses such input, so this is the last line of defence).
std::string jsonText(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// One request from its reading to its answer; the route may run on another thread than the
// reactor that read it, so the exchange carries what writing the answer needs.
struct Exchange {
  std::weak_ptr<Tcp::Peer> peer;
  std::shared_ptr<ClientConnection> connection;
  int http_minor = 1;
  bool keep_alive = true;
  std::chrono::steady_clock::time_point started;
  EdgeRequest edge;
  std::optional<RateDecision> rate;
};

void accessLog(const Exchange& exchange, int status, size_t bytes_out) {
  const ApiRequest& req = exchange.edge.request;
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - exchange.started)
          .count();
  nlohmann::json line = {{"ts", formatIso(std::chrono::system_clock::now())},
                         {"type", "access"},
                         {"request_id", exchange.edge.request_id},
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
  accessLogger().info(jsonText(line));
}

// Writes the answer, then lets the connection idle or close as the request asked. Callable on
// any thread: Pistache queues the write to the peer's reactor (answer_bytes.h says why not
// through its ResponseWriter).
void answer(Exchange& exchange, ApiResponse response) {
  auto peer = exchange.peer.lock();
  if (!peer) {  // the client left; nothing to write to
    exchange.connection->queueAnswer([] { return 0; });
    exchange.connection->answered(false, std::chrono::steady_clock::now());
    return;
  }
  AnswerHead head{exchange.http_minor, response.status, {}};
  head.headers.emplace_back("Connection", exchange.keep_alive ? "keep-alive" : "close");
  if (exchange.rate) {
    response.headers.emplace_back("X-RateLimit-Limit", std::to_string(exchange.rate->limit));
    response.headers.emplace_back("X-RateLimit-Remaining",
                                  std::to_string(exchange.rate->remaining));
    response.headers.emplace_back("X-RateLimit-Reset", std::to_string(exchange.rate->reset_unix));
  }
  response.headers.emplace_back("X-Request-Id", exchange.edge.request_id);
  head.headers.insert(head.headers.end(), std::make_move_iterator(response.headers.begin()),
                      std::make_move_iterator(response.headers.end()));
  // A HEAD request is answered with the GET's headers alone (RFC 9110 9.3.2).
  head.without_body = exchange.edge.request.method == "HEAD";
  bool as_text = !response.content_type.empty();
  std::string body = !response.has_body ? ""
                     : as_text          ? std::move(response.text)
                                        : jsonText(response.body);
  if (response.has_body)
    head.headers.emplace_back("Content-Type", as_text ? response.content_type : "application/json");
  auto connection = exchange.connection;
  bool keep_alive = exchange.keep_alive;
  std::string bytes = answerBytes(head, body);
  // Answers leave in the order they are queued: behind earlier ones, ahead of later ones.
  size_t length = bytes.size();
  auto sent =
      connection->queueAnswer([&] { return peer->send(RawBuffer(std::move(bytes), length)); });
  sent.then([connection, keep_alive](
                ssize_t) { connection->answered(keep_alive, std::chrono::steady_clock::now()); },
            [connection](std::exception_ptr&) {
              connection->answered(false, std::chrono::steady_clock::now());
            });
  accessLog(exchange, response.status, head.without_body ? 0 : body.size());
  metrics::httpRequest(
      exchange.edge.request.route.empty() ? "unmatched" : exchange.edge.request.route,
      exchange.edge.request.method, response.status,
      std::chrono::duration<double>(std::chrono::steady_clock::now() - exchange.started).count());
}

class Handler final : public Http::Handler {
 public:
  HTTP_PROTOTYPE(Handler)

  explicit Handler(std::shared_ptr<ApiServer::Dispatch> dispatch)
      : dispatch_(std::move(dispatch)) {}

  void onConnection(const std::shared_ptr<Tcp::Peer>& peer) override {
    // What Pistache's own onConnection does: its idle-peer check reads this parser, which the
    // edge never feeds (its timeouts are off; ClientConnection keeps the edge's).
    peer->putData(ParserData, std::make_shared<Http::RequestParser>(getMaxRequestSize()));
    auto connection = std::make_shared<ClientConnection>(
        peer->fd(), dispatch_->framer_limits, dispatch_->times, std::chrono::steady_clock::now());
    peer->putData(kConnectionData, connection);
    dispatch_->sweeper.add(connection);
  }

  void onDisconnection(const std::shared_ptr<Tcp::Peer>& peer) override {
    if (auto connection = connectionOf(peer)) {
      connection->disconnected();
      dispatch_->sweeper.remove(connection);
    }
  }

  // Requests are read here, not by Pistache's parser (request_framer.h says why).
  void onInput(const char* buffer, size_t length, const std::shared_ptr<Tcp::Peer>& peer) override {
    auto connection = connectionOf(peer);
    if (!connection) return;
    for (auto& event : connection->read({buffer, length}, std::chrono::steady_clock::now())) {
      // Pipelined behind a request answered off the reactor: nothing may be written before
      // that answer, which comes first; then the connection closes, and the client sends
      // again what was not answered.
      if (connection->dropBehindPendingAnswer()) return;
      switch (event.kind) {
        case RequestFramer::Event::Kind::Continue: {
          static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
          peer->send(RawBuffer(kContinue.data(), kContinue.size()));
          break;
        }
        case RequestFramer::Event::Kind::Refusal:
          refuse(peer, connection, event.refusal);
          return;
        case RequestFramer::Event::Kind::Request:
          serve(peer, connection, std::move(event.request));
          break;
      }
    }
  }

  // Never called: onInput reads requests itself.
  void onRequest(const Http::Request&, Http::ResponseWriter) override {}

 private:
  Exchange exchangeFor(const std::shared_ptr<Tcp::Peer>& peer,
                       std::shared_ptr<ClientConnection> connection, int http_minor,
                       bool keep_alive) {
    Exchange exchange;
    exchange.peer = peer;
    exchange.connection = std::move(connection);
    exchange.http_minor = http_minor == 0 ? 0 : 1;
    exchange.keep_alive = keep_alive;
    exchange.started = std::chrono::steady_clock::now();
    return exchange;
  }

  void refuse(const std::shared_ptr<Tcp::Peer>& peer,
              const std::shared_ptr<ClientConnection>& connection, ErrorCode code) {
    Exchange exchange = exchangeFor(peer, connection, connection->httpMinor(), false);
    exchange.edge.request_id = newId("req");
    exchange.edge.request.client_ip = peer->address().host();
    answer(exchange,
           ApiResponse::json(errorInfo(code).http_status, errorBody(code, Language::English)));
  }

  void serve(const std::shared_ptr<Tcp::Peer>& peer,
             const std::shared_ptr<ClientConnection>& connection, FramedRequest framed) {
    Exchange exchange = exchangeFor(peer, connection, framed.http_minor, framed.keep_alive);
    exchange.edge = readEdgeRequest(std::move(framed), peer->address().host());
    ApiRequest& edge_req = exchange.edge.request;
    edge_req.client_ip = forwardedClient(dispatch_->app.config.trusted_proxies, edge_req.client_ip,
                                         edge_req.header("x-forwarded-for"));
    // Log lines and the Kafka records this request causes carry its id (adapters/log.h).
    RequestScope scope(exchange.edge.request_id);
    ApiRequest& req = exchange.edge.request;
    RequestPipeline& pipeline = dispatch_->pipeline;
    try {
      if (exchange.edge.refusal) {
        pipeline.useErrorDialectOfRoute(req);
        throw *exchange.edge.refusal;
      }
      const Route& route = pipeline.admit(req, exchange.rate);
      if (route.options.slow) return runOnSlowLane(std::move(exchange), route);
      ApiResponse response;
      try {
        response = pipeline.run(req, route);
      } catch (const MoveToSlowLane&) {
        return runOnSlowLane(std::move(exchange), route);
      }
      return answer(exchange, std::move(response));
    } catch (...) {
      return answer(exchange, pipeline.answerForError(req, std::current_exception()));
    }
  }

  // Unauthenticated requests have a lane of their own: however many strangers' requests wait
  // on a server that never answers, an account's slow request finds its threads free.
  void runOnSlowLane(Exchange exchange, const Route& route) {
    const ApiRequest& req = exchange.edge.request;
    SlowLane& lane = req.caller ? dispatch_->slow_lane : dispatch_->anonymous_lane;
    std::string tenant = req.caller ? req.caller->account_id : addressKey(req.client_ip);
    auto shared = std::make_shared<Exchange>(std::move(exchange));
    shared->edge.request.on_slow_lane = true;
    shared->connection->answerLater();
    auto dispatch = dispatch_;
    auto job = [dispatch, shared, &route] {
      RequestScope scope(shared->edge.request_id);
      ApiResponse response;
      try {
        response = dispatch->pipeline.run(shared->edge.request, route);
      } catch (...) {
        response =
            dispatch->pipeline.answerForError(shared->edge.request, std::current_exception());
      }
      answer(*shared, std::move(response));
    };
    auto admission = lane.submit(tenant, std::move(job));
    if (admission == SlowLane::Admission::Accepted) return;
    const SlowLaneLimits& limits = lane.limits();
    ApiError refusal = admission == SlowLane::Admission::TenantBusy
                           ? ApiError(ErrorCode::RATE_LIMITED,
                                      {{"reason", "too_many_slow_requests"},
                                       {"running", limits.running_per_tenant},
                                       {"waiting", limits.waiting_per_tenant}},
                                      1)
                           : ApiError(ErrorCode::SERVICE_UNAVAILABLE, {{"reason", "busy"}}, 1);
    answer(*shared, dispatch_->pipeline.answerForError(shared->edge.request,
                                                       std::make_exception_ptr(refusal)));
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
  auto options = Http::Endpoint::options()
                     .threads(config.threads)
                     .flags(Tcp::Options::ReuseAddr)
                     .headerTimeout(kPistacheTimeoutsOff)
                     .bodyTimeout(kPistacheTimeoutsOff)
                     .keepaliveTimeout(kPistacheTimeoutsOff);
  endpoint_->init(options);
  endpoint_->setHandler(Http::make_handler<Handler>(dispatch_));
  endpoint_->serveThreaded();
}

void ApiServer::shutdown() {
  if (!endpoint_) return;
  // Answers still being worked on are written while the reactors still run; the sweeper stops
  // before Pistache closes the sockets it watches.
  dispatch_->slow_lane.stop();
  dispatch_->anonymous_lane.stop();
  dispatch_->sweeper.stop();
  endpoint_->shutdown();
  endpoint_.reset();
}

uint16_t ApiServer::port() const {
  return endpoint_ ? static_cast<uint16_t>(endpoint_->getPort()) : 0;
}

}  // namespace smsgw::api
