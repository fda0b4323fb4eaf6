#pragma once
// One process's settings in one place: each is read from its environment variable (or from the
// matching command-line option, `--api-port` for API_PORT, for a run by hand), falls back to
// the default its variable held when registered, and is checked before the process starts.
// `--help` lists every setting with its variable and default, `--version` names the build, and
// `--settings-markdown` prints the process's table of docs/configuration.md (the test
// ConfigurationDoc.MatchesTheProcesses keeps that file in step with the code).
// Built and parsed once in a main(); not thread-safe.

#include <chrono>
#include <functional>
#include <memory>
#include <string>

namespace CLI {
class App;
}

namespace smsgw {

class ProcessSettings {
 public:
  // `process`: the executable's name; `what`: one line saying what it does.
  ProcessSettings(std::string process, std::string what);
  ~ProcessSettings();
  ProcessSettings(const ProcessSettings&) = delete;
  ProcessSettings& operator=(const ProcessSettings&) = delete;

  // `value` holds the default and receives the setting. `default_text`, when given, is what the
  // documentation says of a default computed later (for example from other settings).
  void add(const char* variable, std::string& value, const char* meaning,
           const char* default_text = nullptr);
  void add(const char* variable, int& value, const char* meaning,
           const char* default_text = nullptr);
  void add(const char* variable, size_t& value, const char* meaning);
  void add(const char* variable, bool& value, const char* meaning);
  void add(const char* variable, std::chrono::milliseconds& value, const char* meaning);
  void add(const char* variable, std::chrono::seconds& value, const char* meaning);
  // A secret: `local_default` serves only on a local stack (SMSGW_ENVIRONMENT=local); anywhere
  // else the process refuses to start while the secret is unset or still that default, so it
  // never runs with a value published in this repository. Never printed.
  void addSecret(const char* variable, std::string& value, std::string local_default,
                 const char* meaning);
  // A rule over several settings, run after all are read; it throws std::invalid_argument to
  // refuse the start (or fills a default computed from others).
  void afterReading(std::function<void()> rule);
  // The command line underneath, for a process that also takes subcommands (smsgw-admin).
  CLI::App& cli();

  // Reads the command line and the environment. Prints and exits 0 on --help, --version and
  // --settings-markdown; prints what is wrong and exits 1 on a bad or missing setting.
  void parse(int argc, char** argv);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace smsgw
