#pragma once
// `smsgw-admin replay`: finds the worker that handles the topic (topics/catalogue.h) and
// replaces this process with `smsgw-<worker> replay ...` (workers/runtime/replay_command.h), so
// the replay runs the worker's real handler with the worker's own settings from the same
// environment.

#include <string>

#include "workers/runtime/replay_command.h"

namespace smsgw::admin {

// Returns only on failure (the exit code, the reason on stderr).
int handOverReplay(const workers::ReplayCommand& replay, const std::string& worker_dir);

}  // namespace smsgw::admin
