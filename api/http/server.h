#pragma once
// The HTTP edge: Pistache in, the spec's answers out. Everything every request needs happens
// here once: body limits and JSON parsing (FST_ERR_* answers), authentication, rate limits,
// account state, permissions, error bodies in the caller's language, keep-alive, access log.

#include <memory>

#include "api/app.h"
#include "api/http/router.h"

namespace Pistache::Http {
class Endpoint;
}

namespace smsgw::api {

class ApiServer {
 public:
  ApiServer(App& app, Router router);
  ~ApiServer();
  void start();  // serves on Pistache's threads and returns
  void shutdown();
  uint16_t port() const;

  struct Dispatch;  // shared by Pistache's per-thread handler copies

 private:
  std::shared_ptr<Dispatch> dispatch_;
  std::unique_ptr<Pistache::Http::Endpoint> endpoint_;
};

}  // namespace smsgw::api
