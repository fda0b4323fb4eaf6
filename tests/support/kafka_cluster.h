#pragma once
// A cluster of Apache Kafka KRaft nodes on loopback for one test, each node broker and
// controller in one JVM (ops/broker/kafka-node: the version and settings of ops/up and
// deploy/compose.yaml). A node's storage lives in a scratch folder that outlives its kill and
// restart, as a real disk does; `wipe` gives a cluster that comes back with nothing.

#include <memory>
#include <string>
#include <vector>

#include "tests/support/child_process.h"

namespace smsgw::testing {

class KafkaCluster {
 public:
  // `name` makes the scratch folder's and logs' names; ports are chosen free.
  KafkaCluster(const std::string& name, int nodes);
  ~KafkaCluster();  // stops the nodes and removes their storage
  KafkaCluster(const KafkaCluster&) = delete;
  KafkaCluster& operator=(const KafkaCluster&) = delete;

  // Starts every node that is not running and waits until the cluster's metadata lists them
  // all; false when that took more than 120 s.
  bool start();
  std::string bootstrap() const;  // "127.0.0.1:port,..." of every node
  int size() const { return static_cast<int>(nodes_.size()); }
  // Node `index` (0-based; its node.id is index + 1): kill9, signal(SIGSTOP), start...
  ChildProcess& node(int index) { return *nodes_.at(static_cast<size_t>(index)); }
  // Stops every node and deletes their storage: the next start formats a new, empty cluster.
  void wipe();

  // The index of the node that leads `topic`'s `partition`, -1 when none does now.
  int leaderOf(const std::string& topic, int partition) const;
  // The partition of `topic` with the most records (its highest end offset).
  int busiestPartition(const std::string& topic) const;
  // The index of the node the controller quorum follows (Kafka's metadata-quorum tool), -1 when
  // it could not tell.
  int activeController() const;
  // The folder of its logs (one per node).
  std::string logOf(int index) const;

 private:
  std::string dir_;
  std::string cluster_id_;
  std::vector<int> ports_;  // clients; the controller's is the next one
  std::vector<std::unique_ptr<ChildProcess>> nodes_;
};

}  // namespace smsgw::testing
