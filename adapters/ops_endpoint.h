#pragma once
// A process's operations listener, apart from any traffic it serves: GET /metrics (Prometheus
// text, adapters/metrics.h), GET /health (the process is alive: 200) and GET /ready (it can do
// its work now: 200, or 503 with the reason). Workers have no other HTTP; the API serves its
// customers on another port. Owns a Pistache endpoint and its thread from construction to
// destruction; the callbacks run on that thread.

#include <functional>
#include <memory>
#include <string>

namespace smsgw {

class ProcessSettings;

struct OpsEndpointConfig {
  std::string host = "127.0.0.1";
  int port = 0;  // 0: no listener
};
// METRICS_HOST, METRICS_PORT.
void addOpsEndpointSettings(ProcessSettings& settings, OpsEndpointConfig& config);

class OpsEndpoint {
 public:
  // `ready` answers whether the process can work now, filling `why` when not; `before_scrape`
  // refreshes the gauges read from elsewhere (the outbox backlog) just before /metrics answers.
  OpsEndpoint(const OpsEndpointConfig& config, std::function<bool(std::string& why)> ready,
              std::function<void()> before_scrape = nullptr);
  ~OpsEndpoint();
  OpsEndpoint(const OpsEndpoint&) = delete;
  OpsEndpoint& operator=(const OpsEndpoint&) = delete;

 private:
  struct Listener;
  std::unique_ptr<Listener> listener_;
};

}  // namespace smsgw
