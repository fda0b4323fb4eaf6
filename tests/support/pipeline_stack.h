#pragma once
// A whole pipeline of the real binaries for the operations tests (replay, scaled pools, the
// reconciler, broker faults): its own Apache Kafka cluster (one KRaft node, or three), so the
// topics' offsets are the test's alone and its brokers can be killed, frozen and restarted; the
// carrier simulator, the API and every worker, on free ports, a scratch database and consumer
// groups of their own. Workers can be scaled out, stopped, killed and started again;
// smsgw-admin runs with the same environment.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "tests/support/child_process.h"
#include "tests/support/kafka_cluster.h"

namespace smsgw::testing {

enum class Worker { Sender, Receipt, InboundKeyword, WebhookDispatcher, RentBilling };

class PipelineStack {
 public:
  // `settings` add to (or override) every process's environment.
  // `brokers` Kafka nodes: topics get that many replicas (up to 3), min.insync.replicas 2 from
  // two nodes on.
  PipelineStack(const std::string& database_url, std::map<std::string, std::string> settings,
                int brokers = 1);
  ~PipelineStack();

  // Starts the brokers (and creates the catalogue's topics with smsgw-admin), the simulator, the
  // API and one of each worker; false when the brokers, the simulator or the API did not answer.
  bool start();

  std::string apiUrl() const;
  // Starts another API instance beside the first (two behind a balancer), on ports of its own;
  // returns its index (the first API is 0).
  size_t addApi();
  std::string apiUrl(size_t instance) const;
  int apiPort(size_t instance) const;
  int apiOpsPort(size_t instance) const;  // its /ready, /health and /metrics
  ChildProcess& api(size_t instance);
  std::string apiLogOf(size_t instance) const;
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
  void stopEverything();             // workers, API, simulator and brokers
  // Stops the API and every worker and points them at another database (a restore); their
  // logs go on in the same files. startApiAndWorkers() starts them again.
  void moveDatabase(const std::string& database_url);
  bool startApiAndWorkers();  // false when the API did not answer
  // Kills the brokers and starts them again with empty disks: every record and committed offset
  // is lost, the catalogue's topics are created again.
  void replaceBrokersWithEmptyOnes();
  KafkaCluster& kafka() { return kafka_; }
  // The log file of an instance of `worker`.
  std::string logOf(Worker worker, size_t instance) const;
  // The log file of every process of ours the stack made (API, workers, simulator).
  const std::vector<std::string>& logFiles() const { return log_files_; }

  struct Run {
    int exit_code = -1;
    std::string out;  // standard output
    std::string log;  // standard error
  };
  Run admin(const std::vector<std::string>& args);

  static std::vector<Worker> allWorkers();

 private:
  std::unique_ptr<ChildProcess> newProcess(const std::string& path, const std::string& name,
                                           std::vector<std::string> args = {},
                                           const std::map<std::string, std::string>& own = {});
  std::unique_ptr<ChildProcess> newApi(size_t instance);
  bool startBrokers();

  std::string run_;
  KafkaCluster kafka_;
  int api_port_ = 0, sim_port_ = 0;
  std::map<std::string, std::string> env_;
  std::unique_ptr<ChildProcess> sim_, api_;
  struct ExtraApi {
    int port = 0, ops_port = 0;
    std::unique_ptr<ChildProcess> process;
  };
  int api_ops_port_ = 0;
  std::vector<ExtraApi> more_apis_;  // instances 1, 2, ...
  std::map<Worker, std::vector<std::unique_ptr<ChildProcess>>> workers_;
  std::vector<std::string> log_files_;
};

}  // namespace smsgw::testing
