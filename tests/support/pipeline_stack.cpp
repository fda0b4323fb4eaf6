#include "tests/support/pipeline_stack.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "domain/crypto.h"
#include "domain/ids.h"
#include "tests/support/crash_stack.h"
#include "tests/support/scratch_database.h"

namespace smsgw::testing {
namespace {

struct WorkerBinary {
  Worker worker;
  const char* name;  // the consumer group's suffix and the executable's, smsgw-<name>
  const char* path;
};

constexpr WorkerBinary kWorkers[] = {
    {Worker::Sender, "sender", SMSGW_SENDER_PATH},
    {Worker::Receipt, "receipt", SMSGW_RECEIPT_PATH},
    {Worker::InboundKeyword, "inbound-keyword", SMSGW_INBOUND_PATH},
    {Worker::WebhookDispatcher, "webhook-dispatcher", SMSGW_DISPATCHER_PATH},
    {Worker::RentBilling, "rent-billing", SMSGW_RENT_PATH},
};

const WorkerBinary& binaryOf(Worker worker) {
  for (const auto& binary : kWorkers) {
    if (binary.worker == worker) return binary;
  }
  throw std::logic_error("unknown worker");
}

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::filesystem::path scratchFile(const std::string& run, const std::string& name) {
  return std::filesystem::temp_directory_path() / ("stack-" + run + "-" + name);
}

}  // namespace

PipelineStack::PipelineStack(const std::string& database_url,
                             std::map<std::string, std::string> settings, int brokers)
    : run_(crypto::sha256Hex(newId("run")).substr(0, 8)),
      kafka_("stack-" + run_, brokers),
      api_port_(freeLoopbackPort()),
      sim_port_(freeLoopbackPort()),
      api_ops_port_(freeLoopbackPort()) {
  env_ = {{"DATABASE_URL", database_url},
          {"KAFKA_BROKERS", kafka_.bootstrap()},
          {"KAFKA_BOOTSTRAP_FILE", ""},
          {"KAFKA_GROUP_PREFIX", "stack" + run_},
          {"API_PORT", std::to_string(api_port_)},
          {"CARRIER_BASE_URL", simUrl()},
          {"SIM_GATEWAY_URL", apiUrl()},
          // Not the test stack's (inherited from ops/test): receipts come to this stack's API.
          {"CARRIER_WEBHOOK_URL", apiUrl() + "/carrier/webhooks"},
          {"SMSGW_ENVIRONMENT", "local"},
          {"ALLOW_PRIVATE_WEBHOOK_TARGETS", "true"}};
  settings.merge(env_);  // the stack's own addresses win
  env_ = std::move(settings);
  sim_ = newProcess(SMSGW_SIM_PATH, "sim",
                    {"--host", "127.0.0.1", "--port", std::to_string(sim_port_)});
  api_ = newApi(0);
  for (const auto& binary : kWorkers) {
    workers_[binary.worker].push_back(newProcess(binary.path, std::string(binary.name) + "-0"));
  }
}

PipelineStack::~PipelineStack() {
  stopEverything();
}

std::unique_ptr<ChildProcess> PipelineStack::newProcess(
    const std::string& path, const std::string& name, std::vector<std::string> args,
    const std::map<std::string, std::string>& own) {
  std::string log = scratchFile(run_, name + ".log").string();
  if (std::find(log_files_.begin(), log_files_.end(), log) == log_files_.end())
    log_files_.push_back(log);
  auto env = env_;
  for (const auto& [name_of, value] : own) env[name_of] = value;
  env["DATABASE_URL"] = asProcessRole(env["DATABASE_URL"], name);
  return std::make_unique<ChildProcess>(path, std::move(args), env, log);
}

std::unique_ptr<ChildProcess> PipelineStack::newApi(size_t instance) {
  std::string name = instance == 0 ? "api" : "api-" + std::to_string(instance);
  return newProcess(SMSGW_API_PATH, name, {},
                    {{"API_PORT", std::to_string(apiPort(instance))},
                     {"METRICS_PORT", std::to_string(apiOpsPort(instance))}});
}

size_t PipelineStack::addApi() {
  more_apis_.push_back({freeLoopbackPort(), freeLoopbackPort(), nullptr});
  size_t instance = more_apis_.size();
  more_apis_.back().process = newApi(instance);
  more_apis_.back().process->start();
  return instance;
}

std::string PipelineStack::apiUrl(size_t instance) const {
  return "http://127.0.0.1:" + std::to_string(apiPort(instance));
}

int PipelineStack::apiPort(size_t instance) const {
  return instance == 0 ? api_port_ : more_apis_.at(instance - 1).port;
}

int PipelineStack::apiOpsPort(size_t instance) const {
  return instance == 0 ? api_ops_port_ : more_apis_.at(instance - 1).ops_port;
}

std::string PipelineStack::apiLogOf(size_t instance) const {
  return scratchFile(run_, instance == 0 ? "api.log" : "api-" + std::to_string(instance) + ".log")
      .string();
}

ChildProcess& PipelineStack::api(size_t instance) {
  return instance == 0 ? *api_ : *more_apis_.at(instance - 1).process;
}

void PipelineStack::moveDatabase(const std::string& database_url) {
  for (const auto& binary : kWorkers) stopWorkers(binary.worker);
  api_->terminate();
  env_["DATABASE_URL"] = database_url;
  api_ = newApi(0);
  for (auto& [worker, instances] : workers_) {
    const auto& binary = binaryOf(worker);
    for (size_t i = 0; i < instances.size(); ++i)
      instances[i] = newProcess(binary.path, std::string(binary.name) + "-" + std::to_string(i));
  }
}

bool PipelineStack::startApiAndWorkers() {
  api_->start();
  for (auto& [worker, instances] : workers_) {
    for (auto& instance : instances) instance->start();
  }
  return CrashStack::healthy(apiUrl());
}

bool PipelineStack::startBrokers() {
  if (!kafka_.start()) return false;
  auto created = admin(
      {"topics", "create", "--replication-factor", std::to_string(std::min(3, kafka_.size()))});
  if (created.exit_code != 0) std::cerr << "topics create: " << created.out << created.log;
  return created.exit_code == 0;
}

bool PipelineStack::start() {
  if (!startBrokers()) return false;
  sim_->start();
  api_->start();
  for (auto& [worker, instances] : workers_) {
    for (auto& instance : instances) instance->start();
  }
  return CrashStack::healthy(simUrl()) && CrashStack::healthy(apiUrl());
}

std::string PipelineStack::apiUrl() const {
  return "http://127.0.0.1:" + std::to_string(api_port_);
}

std::string PipelineStack::simUrl() const {
  return "http://127.0.0.1:" + std::to_string(sim_port_);
}

std::string PipelineStack::liveGroup(Worker worker) const {
  return env_.at("KAFKA_GROUP_PREFIX") + "." + binaryOf(worker).name;
}

ChildProcess& PipelineStack::worker(Worker worker, size_t instance) {
  return *workers_.at(worker).at(instance);
}

std::string PipelineStack::logOf(Worker worker, size_t instance) const {
  return scratchFile(run_,
                     std::string(binaryOf(worker).name) + "-" + std::to_string(instance) + ".log")
      .string();
}

size_t PipelineStack::instances(Worker worker) const {
  return workers_.at(worker).size();
}

size_t PipelineStack::addWorker(Worker worker) {
  auto& instances = workers_[worker];
  const auto& binary = binaryOf(worker);
  instances.push_back(
      newProcess(binary.path, std::string(binary.name) + "-" + std::to_string(instances.size())));
  instances.back()->start();
  return instances.size() - 1;
}

void PipelineStack::stopWorkers(Worker worker) {
  std::vector<std::thread> stopping;
  for (auto& instance : workers_.at(worker))
    stopping.emplace_back([&instance] { instance->terminate(); });
  for (auto& thread : stopping) thread.join();
}

void PipelineStack::startWorkers(Worker worker) {
  for (auto& instance : workers_.at(worker)) {
    if (!instance->running()) instance->start();
  }
}

void PipelineStack::stopEverything() {
  for (const auto& binary : kWorkers) stopWorkers(binary.worker);
  for (auto& more : more_apis_) more.process->terminate();
  api_->terminate();
  sim_->terminate();
  for (int i = 0; i < kafka_.size(); ++i) kafka_.node(i).terminate();
}

void PipelineStack::replaceBrokersWithEmptyOnes() {
  kafka_.wipe();
  if (!startBrokers()) throw std::runtime_error("the new brokers did not start");
}

PipelineStack::Run PipelineStack::admin(const std::vector<std::string>& args) {
  std::string name = "admin-" + randomBase62(6);
  std::string out = scratchFile(run_, name + ".out").string();
  std::string log = scratchFile(run_, name + ".log").string();
  ChildProcess process(SMSGW_ADMIN_PATH, args, env_, log, out);
  process.start();
  Run run;
  run.exit_code = process.waitForExit(std::chrono::minutes(5)).value_or(-1);
  run.out = readFile(out);
  run.log = readFile(log);
  return run;
}

std::vector<Worker> PipelineStack::allWorkers() {
  std::vector<Worker> all;
  for (const auto& binary : kWorkers) all.push_back(binary.worker);
  return all;
}

}  // namespace smsgw::testing
