#include "tests/support/local_cluster.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "domain/ids.h"
#include "tests/support/child_process.h"

namespace smsgw::testing {
namespace {

// initdb refuses root: the server's programs run as the postgres user when the tests run as root.
std::string asServerUser(const std::string& command) {
  return geteuid() == 0 ? "runuser -u postgres -- " + command : command;
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
  runOrThrow(
      asServerUser(program("pg_ctl") + " -D " + dir_ + " -l " + dir_ +
                   "/server.log -w -t 60 start -o '-p " + std::to_string(port_) +
                   " -c listen_addresses=127.0.0.1 -k " + dir_ + " -c fsync=off' >/dev/null"),
      "pg_ctl start");
  runOrThrow(program("psql") + " -h 127.0.0.1 -p " + std::to_string(port_) +
                 " -U postgres -qc 'CREATE ROLE smsgw LOGIN CREATEDB' >/dev/null",
             "CREATE ROLE");
}

LocalCluster::~LocalCluster() {
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

}  // namespace smsgw::testing
