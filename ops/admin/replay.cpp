#include "ops/admin/replay.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <vector>

#include "topics/catalogue.h"

namespace smsgw::admin {
namespace {

// Installed, the workers sit beside smsgw-admin; in a build tree, in ../workers.
std::filesystem::path workerPath(const std::string& worker_dir, std::string_view worker) {
  std::string name = "smsgw-" + std::string(worker);
  if (!worker_dir.empty()) return std::filesystem::path(worker_dir) / name;
  auto here = std::filesystem::read_symlink("/proc/self/exe").parent_path();
  for (const auto& candidate : {here / name, here.parent_path() / "workers" / name}) {
    if (std::filesystem::exists(candidate)) return candidate;
  }
  return here / name;
}

}  // namespace

int handOverReplay(const workers::ReplayCommand& replay, const std::string& worker_dir) {
  const topics::TopicSpec* topic = topics::findTopic(replay.topic);
  if (!topic) {
    std::cerr << "smsgw-admin: no topic " << replay.topic << " in the catalogue (";
    for (const auto& known : topics::allTopics()) std::cerr << " " << known.name;
    std::cerr << " )\n";
    return 2;
  }
  if (topic->consumer.empty()) {
    std::cerr << "smsgw-admin: no worker reads " << topic->name
              << ": there is nothing to replay it into\n";
    return 2;
  }
  std::string path = workerPath(worker_dir, topic->consumer).string();
  std::vector<std::string> args = {path, "replay"};
  for (auto& arg : workers::replayArguments(replay)) args.push_back(std::move(arg));
  std::vector<char*> argv;
  argv.reserve(args.size() + 1);
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  ::execv(path.c_str(), argv.data());
  std::cerr << "smsgw-admin: cannot run " << path << ": " << std::strerror(errno) << "\n";
  return 1;
}

}  // namespace smsgw::admin
