#include "tests/support/local_cluster.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "domain/ids.h"
#include "tests/support/child_process.h"
#include "tests/support/scratch_database.h"

namespace smsgw::testing {
namespace {

// initdb refuses root: the server's programs run as the postgres user when the tests run as root.
std::string asServerUser(const std::string& command) {
  return geteuid() == 0 ? "runuser -u postgres -- " + command : command;
}

int postmasterPid(const std::string& dir) {
  std::ifstream file(dir + "/postmaster.pid");
  int pid = 0;
  file >> pid;
  if (pid <= 0) throw std::runtime_error("no postmaster.pid in " + dir);
  return pid;
}

// The postmaster and every process it started.
std::vector<int> clusterPids(int postmaster) {
  std::vector<int> pids{postmaster};
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::ifstream stat(entry.path() / "stat");
    std::string pid, comm, state;
    int parent = 0;
    if (stat >> pid >> comm >> state >> parent && parent == postmaster)
      pids.push_back(std::stoi(pid));
  }
  return pids;
}

}  // namespace

void runOrThrow(const std::string& command, const std::string& what) {
  if (std::system(command.c_str()) != 0) throw std::runtime_error(what + " failed: " + command);
}

std::string LocalCluster::program(const std::string& name) {
  std::vector<std::filesystem::path> bins;
  for (const auto& entry : std::filesystem::directory_iterator("/usr/lib/postgresql"))
    bins.push_back(entry.path() / "bin");
  if (bins.empty()) throw std::runtime_error("no PostgreSQL server under /usr/lib/postgresql");
  std::sort(bins.begin(), bins.end(), [](const auto& a, const auto& b) {
    return std::stoi(a.parent_path().filename().string()) <
           std::stoi(b.parent_path().filename().string());
  });
  return (bins.back() / name).string();
}

LocalCluster::LocalCluster()
    : dir_((std::filesystem::temp_directory_path() / ("pgcluster-" + randomBase62(8))).string()),
      port_(freeLoopbackPort()) {
  std::filesystem::create_directories(dir_);
  if (geteuid() == 0) runOrThrow("chown postgres:postgres " + dir_, "chown");
  runOrThrow(asServerUser(program("initdb") + " -D " + dir_ +
                          " -U postgres -A trust -E UTF8 --locale=C.UTF-8 >/dev/null"),
             "initdb");
  start();
  runOrThrow(program("psql") + " -h 127.0.0.1 -p " + std::to_string(port_) +
                 " -U postgres -qc 'CREATE ROLE smsgw LOGIN CREATEDB' >/dev/null",
             "CREATE ROLE");
  // The process kinds' roles, as every cluster the gateway runs on has them (db/grants.sql).
  for (const auto& kind : processKinds()) {
    runOrThrow(program("psql") + " -h 127.0.0.1 -p " + std::to_string(port_) +
                   " -U postgres -qc 'CREATE ROLE smsgw_" + kind +
                   " LOGIN IN ROLE pg_read_all_stats' >/dev/null",
               "CREATE ROLE");
  }
}

LocalCluster::~LocalCluster() {
  thaw();  // a frozen server cannot stop
  std::system(asServerUser(program("pg_ctl") + " -D " + dir_ + " -m immediate stop >/dev/null 2>&1")
                  .c_str());
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

std::string LocalCluster::createDatabase(const std::string& name) {
  runOrThrow(program("psql") + " -h 127.0.0.1 -p " + std::to_string(port_) +
                 " -U postgres -qc 'CREATE DATABASE " + name + " OWNER smsgw' >/dev/null",
             "CREATE DATABASE");
  return "host=127.0.0.1 port=" + std::to_string(port_) + " dbname=" + name + " user=smsgw";
}

std::string LocalCluster::serverOptions() const {
  return "-o '-p " + std::to_string(port_) + " -c listen_addresses=127.0.0.1 -k " + dir_ +
         " -c fsync=off'";
}

void LocalCluster::start() {
  runOrThrow(asServerUser(program("pg_ctl") + " -D " + dir_ + " -l " + dir_ +
                          "/server.log -w -t 60 start " + serverOptions() + " >/dev/null"),
             "pg_ctl start");
}

void LocalCluster::killPostmaster() {
  int postmaster = postmasterPid(dir_);
  ::kill(postmaster, SIGKILL);
  // Its backends exit once they notice it gone; a new postmaster waits for none of them.
  for (int i = 0; i < 100 && clusterPids(postmaster).size() > 1; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
}

void LocalCluster::restartFast() {
  runOrThrow(
      asServerUser(program("pg_ctl") + " -D " + dir_ + " -l " + dir_ +
                   "/server.log -m fast -w -t 60 restart " + serverOptions() + " >/dev/null"),
      "pg_ctl restart");
}

void LocalCluster::freeze() {
  for (int pid : clusterPids(postmasterPid(dir_))) ::kill(pid, SIGSTOP);
}

void LocalCluster::thaw() {
  std::error_code missing;
  if (!std::filesystem::exists(dir_ + "/postmaster.pid", missing)) return;
  for (int pid : clusterPids(postmasterPid(dir_))) ::kill(pid, SIGCONT);
}

}  // namespace smsgw::testing
