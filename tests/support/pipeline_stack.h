#pragma once
// A whole pipeline of the real binaries for the operations tests (replay, scaled pools, the
// reconciler): its own embedded broker, so the topics' offsets are the test's alone and the
// broker can be restarted (losing every record, as the mock keeps nothing), the carrier
// simulator, the API and every worker, on free ports, a scratch database and consumer groups of
// their own. Workers can be scaled out, stopped, killed and started again; smsgw-admin runs
// with the same environment.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tests/support/child_process.h"

namespace smsgw::testing {

enum class Worker { Sender, Receipt, InboundKeyword, WebhookDispatcher, RentBilling };

class PipelineStack {
 public:
  // `settings` add to (or override) every process's environment.
  PipelineStack(const std::string& database_url, std::map<std::string, std::string> settings);
  ~PipelineStack();

  // Starts the broker, the simulator, the API and one of each worker; false when the simulator
  // or the API did not answer.
  bool start();

  std::string apiUrl() const;
  std::string simUrl() const;
  // The live consumer group of a worker, e.g. "<prefix>.receipt".
  std::string liveGroup(Worker worker) const;
  ChildProcess& api() { return *api_; }
  ChildProcess& worker(Worker worker, size_t instance = 0);
  size_t instances(Worker worker) const;

  // Starts another instance of `worker`; returns its index.
  size_t addWorker(Worker worker);
  // Stops every instance of `worker` with SIGTERM (a clean stop: they leave their group).
  void stopWorkers(Worker worker);
  void startWorkers(Worker worker);  // starts every instance not running
  void stopEverything();             // workers, API, simulator and broker
  // Kills the broker, which loses every record and committed offset, and starts a new one (on new
  // ports, written to the bootstrap file the processes read when they start).
  void restartBroker();

  struct Run {
    int exit_code = -1;
    std::string out;  // standard output
    std::string log;  // standard error
  };
  Run admin(const std::vector<std::string>& args);

  static std::vector<Worker> allWorkers();

 private:
  std::unique_ptr<ChildProcess> newProcess(const std::string& path, const std::string& name,
                                           std::vector<std::string> args = {});
  void startBroker();

  std::string run_;
  std::string bootstrap_file_;
  int api_port_ = 0, sim_port_ = 0;
  std::map<std::string, std::string> env_;
  std::unique_ptr<ChildProcess> broker_, sim_, api_;
  std::map<Worker, std::vector<std::unique_ptr<ChildProcess>>> workers_;
};

}  // namespace smsgw::testing
