#include "tests/support/crash_stack.h"

#include <filesystem>
#include <thread>

#include "adapters/http_client.h"
#include "domain/crypto.h"
#include "domain/ids.h"
#include "tests/support/scratch_database.h"

namespace smsgw::testing {

CrashStack::CrashStack(const std::string& database_url, std::map<std::string, std::string> settings)
    : api_port_(freeLoopbackPort()), sim_port_(freeLoopbackPort()) {
  std::string run = crypto::sha256Hex(newId("run")).substr(0, 8);
  std::map<std::string, std::string> env = {
      {"DATABASE_URL", database_url},
      {"KAFKA_GROUP_PREFIX", "crash" + run},
      {"API_PORT", std::to_string(api_port_)},
      {"CARRIER_BASE_URL", simUrl()},
      {"SIM_GATEWAY_URL", apiUrl()},
      {"CARRIER_WEBHOOK_URL", apiUrl() + "/carrier/webhooks"}};
  settings.merge(env);  // the stack's own addresses win
  auto log = [&](const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("crash-" + run + "-" + name + ".log"))
        .string();
  };
  sim_ = std::make_unique<ChildProcess>(
      SMSGW_SIM_PATH,
      std::vector<std::string>{"--host", "127.0.0.1", "--port", std::to_string(sim_port_)},
      settings, log("sim"));
  // Each process signs in as its kind's role, as in production.
  auto as = [&](const std::string& kind) {
    auto own = settings;
    own["DATABASE_URL"] = asProcessRole(database_url, kind);
    return own;
  };
  api_ = std::make_unique<ChildProcess>(SMSGW_API_PATH, std::vector<std::string>{}, as("api"),
                                        log("api"));
  sender_ = std::make_unique<ChildProcess>(SMSGW_SENDER_PATH, std::vector<std::string>{},
                                           as("sender"), log("sender"));
  receipt_ = std::make_unique<ChildProcess>(SMSGW_RECEIPT_PATH, std::vector<std::string>{},
                                            as("receipt"), log("receipt"));
}

bool CrashStack::start() {
  for (auto* process : {sim_.get(), api_.get(), sender_.get(), receipt_.get()}) process->start();
  return healthy(simUrl()) && healthy(apiUrl());
}

std::string CrashStack::apiUrl() const {
  return "http://127.0.0.1:" + std::to_string(api_port_);
}

std::string CrashStack::simUrl() const {
  return "http://127.0.0.1:" + std::to_string(sim_port_);
}

bool CrashStack::healthy(const std::string& base) {
  for (int i = 0; i < 200; ++i) {
    if (httpRequest("GET", base + "/health", {}, "", std::chrono::seconds(1)).status == 200) {
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

}  // namespace smsgw::testing
