#pragma once
// A PostgreSQL cluster of the test's own: initdb in a scratch folder, started on a free loopback
// port, stopped and removed afterwards. What a restore test needs: a cluster other than the one
// the backup came from (its own system identifier and transaction counter); a database fault
// test, a server it may kill.

#include <string>

namespace smsgw::testing {

class LocalCluster {
 public:
  LocalCluster();  // throws std::runtime_error when initdb or the start fails
  ~LocalCluster();
  LocalCluster(const LocalCluster&) = delete;
  LocalCluster& operator=(const LocalCluster&) = delete;

  // Creates a database owned by the smsgw role; returns its URL.
  std::string createDatabase(const std::string& name);

  // Faults (the database tests): the postmaster killed with SIGKILL (its backends see it go and
  // exit; nothing shuts down cleanly) and started again; a restart with a fast shutdown; every
  // process of the cluster frozen with SIGSTOP (unreachable: connections hang, nothing answers)
  // and thawed.
  void killPostmaster();
  void start();
  void restartFast();
  void freeze();
  void thaw();

  // A PostgreSQL program (pg_dump, pg_restore…) of the newest server installed.
  static std::string program(const std::string& name);

 private:
  std::string serverOptions() const;

  std::string dir_;
  int port_ = 0;
};

// Runs a shell command; throws std::runtime_error with `what` when it fails.
void runOrThrow(const std::string& command, const std::string& what);

}  // namespace smsgw::testing
