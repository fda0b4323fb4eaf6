#pragma once
// A service process a test starts, kills with SIGKILL and restarts: for crash tests of our own
// binaries. Output goes to a log file (standard output to `stdout_path` instead, when given);
// the environment is the test's plus `extra_env`.

#include <sys/types.h>

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace smsgw::testing {

class ChildProcess {
 public:
  ChildProcess(std::string path, std::vector<std::string> args,
               std::map<std::string, std::string> extra_env, std::string log_path,
               std::string stdout_path = "");
  ~ChildProcess();  // kills what is still running
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  void start();
  void kill9();  // SIGKILL and reap: the crash
  // SIGTERM, then SIGKILL if it has not ended within `grace`; returns its exit status.
  int terminate(std::chrono::milliseconds grace = std::chrono::seconds(15));
  // Its exit status once it has ended by itself, or nullopt if it still runs after `timeout`.
  std::optional<int> waitForExit(std::chrono::milliseconds timeout);
  bool running() const { return pid_ > 0; }
  // Sends `signal` to the running process (SIGSTOP freezes it, SIGCONT thaws it).
  void signal(int signal);

 private:
  std::string path_;
  std::vector<std::string> args_;
  std::map<std::string, std::string> extra_env_;
  std::string log_path_;
  std::string stdout_path_;
  pid_t pid_ = -1;
};

// A port the kernel has just given out as free (bound to port 0, then let go): a process
// restarted after a kill comes back on it, so it must be fixed for the test's life.
int freeLoopbackPort();
// The first of `count` consecutive ports that are free now, below 32768 so that no outgoing
// connection's ephemeral port takes one while the process that owns it is down.
int freeLoopbackPorts(int count);

}  // namespace smsgw::testing
