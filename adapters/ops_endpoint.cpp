#include "adapters/ops_endpoint.h"

#include <pistache/endpoint.h>
#include <pistache/router.h>
#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>

#include "adapters/metrics.h"
#include "adapters/process_settings.h"

namespace smsgw {

using namespace Pistache;

void addOpsEndpointSettings(ProcessSettings& settings, OpsEndpointConfig& config) {
  settings.add("METRICS_HOST", config.host, "listen address of /metrics, /health and /ready");
  settings.add("METRICS_PORT", config.port, "port of /metrics, /health and /ready (0: none)");
}

struct OpsEndpoint::Listener {
  std::function<bool(std::string&)> ready;
  std::function<void()> before_scrape;
  Rest::Router router;
  std::unique_ptr<Http::Endpoint> endpoint;

  void metrics(const Rest::Request&, Http::ResponseWriter writer) {
    try {
      if (before_scrape) before_scrape();
    } catch (const std::exception& e) {
      spdlog::warn("metrics: refreshing gauges failed: {}", e.what());
    }
    writer.send(Http::Code::Ok, metrics::exposition(), MIME(Text, Plain));
  }
  void health(const Rest::Request&, Http::ResponseWriter writer) {
    writer.send(Http::Code::Ok, R"({"status":"alive"})", MIME(Application, Json));
  }
  void readiness(const Rest::Request&, Http::ResponseWriter writer) {
    std::string why;
    bool ok = false;
    try {
      ok = ready(why);
    } catch (const std::exception& e) {
      why = e.what();
    }
    nlohmann::json body = {{"status", ok ? "ready" : "not_ready"}};
    if (!ok) body["reason"] = why;
    writer.send(ok ? Http::Code::Ok : Http::Code::Service_Unavailable, body.dump(),
                MIME(Application, Json));
  }
};

OpsEndpoint::OpsEndpoint(const OpsEndpointConfig& config,
                         std::function<bool(std::string& why)> ready,
                         std::function<void()> before_scrape) {
  if (config.port <= 0) return;
  listener_ = std::make_unique<Listener>();
  listener_->ready = std::move(ready);
  listener_->before_scrape = std::move(before_scrape);
  Rest::Routes::Get(listener_->router, "/metrics",
                    Rest::Routes::bind(&Listener::metrics, listener_.get()));
  Rest::Routes::Get(listener_->router, "/health",
                    Rest::Routes::bind(&Listener::health, listener_.get()));
  Rest::Routes::Get(listener_->router, "/ready",
                    Rest::Routes::bind(&Listener::readiness, listener_.get()));
  listener_->endpoint = std::make_unique<Http::Endpoint>(
      Address(config.host, Port(static_cast<uint16_t>(config.port))));
  listener_->endpoint->init(Http::Endpoint::options().threads(1).flags(Tcp::Options::ReuseAddr));
  listener_->endpoint->setHandler(listener_->router.handler());
  listener_->endpoint->serveThreaded();
  spdlog::info("metrics, health and readiness on http://{}:{}", config.host, config.port);
}

OpsEndpoint::~OpsEndpoint() {
  if (listener_ && listener_->endpoint) listener_->endpoint->shutdown();
}

}  // namespace smsgw
