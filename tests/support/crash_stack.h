#pragma once
// The services a crash test kills: the carrier simulator, the API, the sender and the receipt
// worker, as the real binaries on ports of their own and a scratch database, with consumer
// groups of their own on the shared broker, so the running stack never sees their messages.
// Each process is restarted on the same port after a kill.

#include <map>
#include <memory>
#include <string>

#include "tests/support/child_process.h"

namespace smsgw::testing {

class CrashStack {
 public:
  // `settings` add to (or override) the processes' environment.
  CrashStack(const std::string& database_url, std::map<std::string, std::string> settings);
  // Starts the four and waits for the simulator and the API to answer; false when they did not.
  bool start();

  std::string apiUrl() const;
  std::string simUrl() const;
  ChildProcess& api() { return *api_; }
  ChildProcess& sender() { return *sender_; }
  ChildProcess& receipt() { return *receipt_; }

  // Whether GET {base}/health answers 200 within 20 seconds.
  static bool healthy(const std::string& base);

 private:
  int api_port_ = 0, sim_port_ = 0;
  std::unique_ptr<ChildProcess> sim_, api_, sender_, receipt_;
};

}  // namespace smsgw::testing
