#pragma once
// HAProxy in front of two API instances, run from deploy/haproxy/haproxy.cfg as production runs
// it: TLS with a certificate made for the test (and trusted by the test's clients), round robin,
// each instance health-checked on its /ready, the client's address appended to
// X-Forwarded-For. It connects to the instances from 127.0.0.2, the address a test gives them as
// API_TRUSTED_PROXIES, so the test's own connections from 127.0.0.1 are a stranger's.

#include <memory>
#include <string>

#include "tests/support/child_process.h"

namespace smsgw::testing {

inline constexpr const char* kBalancerSource = "127.0.0.2";

class Balancer {
 public:
  struct Instance {
    int port = 0;      // the API
    int ops_port = 0;  // its /ready
  };
  Balancer(Instance first, Instance second);
  ~Balancer();
  Balancer(const Balancer&) = delete;
  Balancer& operator=(const Balancer&) = delete;

  // Starts HAProxy; false when it does not answer /health through TLS within 20 s.
  bool start();
  std::string url() const;                                         // https://localhost:<port>
  const std::string& certificate() const { return certificate_; }  // to trust
  const std::string& log() const { return log_; }

 private:
  std::string dir_;
  std::string certificate_;
  std::string log_;
  int port_ = 0;
  std::unique_ptr<ChildProcess> haproxy_;
};

}  // namespace smsgw::testing
