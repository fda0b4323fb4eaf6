#include "adapters/process_settings.h"

#include <CLI/CLI.hpp>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <stdexcept>
#include <vector>

#include "adapters/env.h"

namespace smsgw {
namespace {

std::string optionName(const char* variable) {
  std::string name = "--";
  for (const char* c = variable; *c; ++c)
    name += *c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(*c)));
  return name;
}

// A Markdown table cell: pipes would end it.
std::string cell(std::string text) {
  for (size_t at = text.find('|'); at != std::string::npos; at = text.find('|', at + 2))
    text.replace(at, 1, "\\|");
  return text;
}

}  // namespace

struct ProcessSettings::State {
  struct Entry {
    std::string variable;
    std::string meaning;
    std::string default_text;
  };
  struct Secret {
    std::string variable;
    std::string* value;
    std::string local_default;
  };

  std::string process;
  std::string what;
  CLI::App app;
  std::vector<Entry> entries;
  std::vector<Secret> secrets;
  std::vector<std::function<void()>> rules;
  std::deque<long long> durations;  // what CLI11 fills for a duration, converted after reading

  State(std::string name, std::string description)
      : process(std::move(name)), what(std::move(description)), app(what, process) {}

  template <typename T>
  void addOption(const char* variable, T& value, const char* meaning, std::string default_text) {
    app.add_option(optionName(variable), value, meaning)
        ->envname(variable)
        ->default_str(default_text);
    entries.push_back({variable, meaning, std::move(default_text)});
  }

  template <typename Duration>
  void addDuration(const char* variable, Duration& value, const char* meaning) {
    long long& count = durations.emplace_back(value.count());
    addOption(variable, count, meaning, std::to_string(count));
    rules.push_back([&value, &count] { value = Duration(count); });
  }
};

ProcessSettings::ProcessSettings(std::string process, std::string what)
    : state_(std::make_unique<State>(std::move(process), std::move(what))) {}

ProcessSettings::~ProcessSettings() = default;

void ProcessSettings::add(const char* variable, std::string& value, const char* meaning,
                          const char* default_text) {
  state_->addOption(variable, value, meaning, default_text ? default_text : value);
}

void ProcessSettings::add(const char* variable, int& value, const char* meaning,
                          const char* default_text) {
  state_->addOption(variable, value, meaning, default_text ? default_text : std::to_string(value));
}

void ProcessSettings::add(const char* variable, size_t& value, const char* meaning) {
  state_->addOption(variable, value, meaning, std::to_string(value));
}

void ProcessSettings::add(const char* variable, bool& value, const char* meaning) {
  state_->addOption(variable, value, meaning, value ? "true" : "false");
}

void ProcessSettings::add(const char* variable, std::chrono::milliseconds& value,
                          const char* meaning) {
  state_->addDuration(variable, value, meaning);
}

void ProcessSettings::add(const char* variable, std::chrono::seconds& value, const char* meaning) {
  state_->addDuration(variable, value, meaning);
}

void ProcessSettings::addSecret(const char* variable, std::string& value, std::string local_default,
                                const char* meaning) {
  value.clear();
  state_->app.add_option(optionName(variable), value, meaning)->envname(variable);
  state_->entries.push_back(
      {variable, meaning, "required; `" + local_default + "` on a local stack only"});
  if (state_->secrets.empty()) {
    state_->entries.push_back({"SMSGW_ENVIRONMENT",
                               "`local` lets this process's secrets take their local defaults "
                               "(ops/up and ops/test set it)",
                               "production"});
  }
  state_->secrets.push_back({variable, &value, std::move(local_default)});
}

void ProcessSettings::afterReading(std::function<void()> rule) {
  state_->rules.push_back(std::move(rule));
}

CLI::App& ProcessSettings::cli() {
  return state_->app;
}

void ProcessSettings::parse(int argc, char** argv) {
  CLI::App& app = state_->app;
  app.set_version_flag("--version", std::string(state_->process) + " " SMSGW_VERSION);
  bool markdown = false;
  app.add_flag("--settings-markdown", markdown,
               "print the settings as docs/configuration.md's table and exit");
  // Answered before anything is checked, so a process that takes subcommands prints it too.
  for (int i = 1; i < argc; ++i)
    markdown = markdown || std::string(argv[i]) == "--settings-markdown";
  if (!markdown) {
    try {
      app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
      std::exit(app.exit(e));
    }
  }
  if (markdown) {
    std::printf("## %s\n\n%s.\n\n", state_->process.c_str(), state_->what.c_str());
    std::printf("| variable | meaning | default |\n|---|---|---|\n");
    for (const auto& entry : state_->entries) {
      std::printf("| `%s` | %s | %s |\n", entry.variable.c_str(), cell(entry.meaning).c_str(),
                  cell(entry.default_text).c_str());
    }
    std::exit(0);
  }
  try {
    for (auto& secret : state_->secrets) {
      if (secret.value->empty() || *secret.value == secret.local_default) {
        if (!env::isLocalStack()) {
          throw std::invalid_argument(secret.variable +
                                      " is unset or still the local stack's default; set the "
                                      "real secret (or SMSGW_ENVIRONMENT=local for a local stack)");
        }
        *secret.value = secret.local_default;
      }
    }
    for (auto& rule : state_->rules) rule();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s cannot start: %s\n", state_->process.c_str(), e.what());
    std::exit(1);
  }
}

}  // namespace smsgw
