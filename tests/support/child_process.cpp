#include "tests/support/child_process.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <random>
#include <stdexcept>

extern char** environ;

namespace smsgw::testing {

ChildProcess::ChildProcess(std::string path, std::vector<std::string> args,
                           std::map<std::string, std::string> extra_env, std::string log_path,
                           std::string stdout_path)
    : path_(std::move(path)),
      args_(std::move(args)),
      extra_env_(std::move(extra_env)),
      log_path_(std::move(log_path)),
      stdout_path_(std::move(stdout_path)) {}

ChildProcess::~ChildProcess() {
  if (running()) kill9();
}

void ChildProcess::start() {
  std::map<std::string, std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string entry(*e);
    auto eq = entry.find('=');
    if (eq != std::string::npos) env[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  for (const auto& [name, value] : extra_env_) env[name] = value;
  std::vector<std::string> env_strings;
  env_strings.reserve(env.size());
  for (const auto& [name, value] : env) env_strings.push_back(name + "=" + value);
  std::vector<char*> envp, argv;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  argv.push_back(path_.data());
  for (auto& a : args_) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, STDERR_FILENO, log_path_.c_str(),
                                   O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (stdout_path_.empty()) {
    posix_spawn_file_actions_adddup2(&files, STDERR_FILENO, STDOUT_FILENO);
  } else {
    posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, stdout_path_.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
  }
  int rc = posix_spawn(&pid_, path_.c_str(), &files, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&files);
  if (rc != 0) {
    pid_ = -1;
    throw std::runtime_error("cannot start " + path_);
  }
}

std::optional<int> ChildProcess::waitForExit(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (running()) {
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    if (std::chrono::steady_clock::now() > deadline) return std::nullopt;
    usleep(20'000);
  }
  return std::nullopt;
}

int ChildProcess::terminate(std::chrono::milliseconds grace) {
  if (!running()) return -1;
  ::kill(pid_, SIGTERM);
  if (auto status = waitForExit(grace)) return *status;
  kill9();
  return 128 + SIGKILL;
}

void ChildProcess::kill9() {
  if (!running()) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
}

void ChildProcess::signal(int signal) {
  if (running()) ::kill(pid_, signal);
}

namespace {

bool canBind(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  bool free = ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  ::close(fd);
  return free;
}

}  // namespace

int freeLoopbackPorts(int count) {
  std::random_device seed;
  std::mt19937 random(seed());
  std::uniform_int_distribution<int> first(20000, 32000 - count);
  for (int attempt = 0; attempt < 1000; ++attempt) {
    int port = first(random);
    bool all = true;
    for (int i = 0; i < count && all; ++i) all = canBind(port + i);
    if (all) return port;
  }
  throw std::runtime_error("no free loopback ports");
}

int freeLoopbackPort() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  bool found = fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&address), length) == 0 &&
               ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0;
  if (fd >= 0) ::close(fd);
  if (!found) throw std::runtime_error("no free port on 127.0.0.1");
  return ntohs(address.sin_port);
}

}  // namespace smsgw::testing
