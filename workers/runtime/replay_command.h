#pragma once
// The `replay` subcommand every worker has (`smsgw-receipt replay --topic carrier.receipts
// --from-offset 0 --execute`), which `smsgw-admin replay` hands its arguments to (pipeline rule
// 8). Dry run unless --execute: it prints the plan (records per partition, first and last
// offsets) and re-processes nothing. With --execute it re-processes the range through the
// worker's real handler as a member of a consumer group (by default `<prefix>.<worker>.replay`;
// the live group `<prefix>.<worker>` only while none of its workers runs, which it checks),
// prints a progress line on long runs and a summary: applied, already applied, dead-lettered.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "topics/consumer_loop.h"

namespace CLI {
class App;
}

namespace smsgw::workers {

struct WorkerSpec;
struct WorkerContext;

struct ReplayCommand {
  std::string topic;
  std::optional<int> partition;
  std::optional<long long> from_offset;
  std::optional<long long> to_offset;
  std::string from_time;  // ISO 8601
  std::string to_time;
  std::string group;  // empty: `<prefix>.<worker>.replay`
  bool from_dlq = false;
  bool execute = false;
};

// Adds the options to `command` (a worker's `replay` subcommand, or smsgw-admin's).
void addReplayOptions(CLI::App& command, ReplayCommand& replay);
// The options as command-line arguments again, for smsgw-admin to hand to the worker.
std::vector<std::string> replayArguments(const ReplayCommand& replay);

// Runs the command in a worker process; returns its exit code (0 done, 1 failed, 2 refused).
int runReplayCommand(const WorkerSpec& spec, WorkerContext& context,
                     const std::function<topics::RecordHandler(WorkerContext&)>& make_handler);

}  // namespace smsgw::workers
