#include "workers/runtime/replay_command.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "db/error_text.h"
#include "db/process_registry.h"
#include "topics/catalogue.h"
#include "topics/replay.h"
#include "workers/runtime/periodic.h"
#include "workers/runtime/run_worker.h"

namespace smsgw::workers {
namespace {

std::optional<long long> epochMillis(const std::string& iso, const char* option) {
  if (iso.empty()) return std::nullopt;
  auto parsed = parseIso(iso);
  if (!parsed) {
    throw std::invalid_argument(std::string(option) +
                                " expects ISO 8601, e.g. 2027-01-15T09:30:00Z: " + iso);
  }
  return std::chrono::duration_cast<std::chrono::milliseconds>(parsed->time_since_epoch()).count();
}

topics::ReplayRequest requestOf(const ReplayCommand& command, const std::string& topic) {
  topics::ReplayRequest request;
  request.topic = topic;
  request.partition = command.partition;
  request.from_offset = command.from_offset;
  request.to_offset = command.to_offset;
  request.from_time_ms = epochMillis(command.from_time, "--from-time");
  request.to_time_ms = epochMillis(command.to_time, "--to-time");
  return request;
}

nlohmann::json planJson(const std::vector<topics::PartitionSpan>& spans) {
  nlohmann::json partitions = nlohmann::json::array();
  for (const auto& span : spans) {
    nlohmann::json row = {{"partition", span.partition}, {"records", span.count()}};
    row["first_offset"] = span.count() ? nlohmann::json(span.first) : nlohmann::json(nullptr);
    row["last_offset"] = span.count() ? nlohmann::json(span.end - 1) : nlohmann::json(nullptr);
    partitions.push_back(row);
  }
  return partitions;
}

void printProgress(const std::string& topic, const topics::ReplayProgress& progress) {
  double rate = progress.seconds > 0 ? static_cast<double>(progress.done) / progress.seconds : 0;
  long long left = progress.total - progress.done;
  std::string eta = rate > 0 ? fmt::format("{:.0f}s", static_cast<double>(left) / rate) : "?";
  std::fprintf(stderr, "replay %s: %lld/%lld records (%.0f%%), %.0f/s, ETA %s\n", topic.c_str(),
               progress.done, progress.total,
               progress.total ? 100.0 * static_cast<double>(progress.done) /
                                    static_cast<double>(progress.total)
                              : 100.0,
               rate, eta.c_str());
}

// Why the group may not take this replay now, or nothing.
std::optional<std::string> groupBusy(WorkerContext& context, const topics::ConsumerConfig& group,
                                     const db::ProcessInstance& self) {
  std::vector<std::string> live;
  {
    db::Session sql(context.db);
    live = db::liveMembers(*sql, group.group_id, context.clock.now(), self.instance_id);
  }
  if (!live.empty()) {
    return fmt::format(
        "consumer group {} has {} live member(s): {}. Stop them first, or replay "
        "into another group (--group)",
        group.group_id, live.size(), fmt::join(live, ", "));
  }
  if (auto members = topics::groupMembers(group); members && *members > 0) {
    return fmt::format("the broker says consumer group {} has {} member(s); stop them first",
                       group.group_id, *members);
  }
  return std::nullopt;
}

}  // namespace

void addReplayOptions(CLI::App& command, ReplayCommand& replay) {
  command.add_option("--topic", replay.topic, "the topic to replay (or its .dlq)")->required();
  command.add_option("--partition", replay.partition, "one partition only (default: all)");
  auto* from_offset =
      command.add_option("--from-offset", replay.from_offset, "first offset replayed (inclusive)");
  auto* from_time = command.add_option("--from-time", replay.from_time,
                                       "first record at or after this ISO 8601 time");
  from_offset->excludes(from_time);
  auto* to_offset =
      command.add_option("--to-offset", replay.to_offset, "last offset replayed (inclusive)");
  auto* to_time =
      command.add_option("--to-time", replay.to_time, "only records before this ISO 8601 time");
  to_offset->excludes(to_time);
  command.add_option("--group", replay.group,
                     "consumer group the replay joins (default <prefix>.<worker>.replay; the "
                     "live group only while its workers are stopped)");
  command.add_flag("--from-dlq", replay.from_dlq,
                   "re-drive the topic's dead letters (<topic>.dlq) through its handler");
  command.add_flag("--execute", replay.execute,
                   "re-process the records (without it: a dry run that prints the plan)");
  command.callback([&command] {
    if (command.count("--from-offset") + command.count("--from-time") == 0)
      throw CLI::ValidationError("replay", "give --from-offset or --from-time");
  });
}

std::vector<std::string> replayArguments(const ReplayCommand& replay) {
  std::vector<std::string> args = {"--topic", replay.topic};
  auto add = [&args](const char* option, const std::string& value) {
    args.push_back(option);
    args.push_back(value);
  };
  if (replay.partition) add("--partition", std::to_string(*replay.partition));
  if (replay.from_offset) add("--from-offset", std::to_string(*replay.from_offset));
  if (replay.to_offset) add("--to-offset", std::to_string(*replay.to_offset));
  if (!replay.from_time.empty()) add("--from-time", replay.from_time);
  if (!replay.to_time.empty()) add("--to-time", replay.to_time);
  if (!replay.group.empty()) add("--group", replay.group);
  if (replay.from_dlq) args.push_back("--from-dlq");
  if (replay.execute) args.push_back("--execute");
  return args;
}

int runReplayCommand(const WorkerSpec& spec, WorkerContext& context,
                     const std::function<topics::RecordHandler(WorkerContext&)>& make_handler) {
  const ReplayCommand& command = spec.replay;
  std::string topic = command.from_dlq ? topics::deadLetterTopic(command.topic) : command.topic;
  const topics::TopicSpec* known = topics::findTopic(topic);
  if (!known || known->consumer != spec.name) {
    std::fprintf(stderr, "smsgw-%s handles %s (and its .dlq), not %s\n", spec.name.c_str(),
                 fmt::format("{}", fmt::join(spec.topics, ", ")).c_str(), topic.c_str());
    return 2;
  }
  std::string group = command.group.empty() ? spec.liveGroup() + ".replay" : command.group;
  topics::ConsumerConfig config = spec.consumerConfig(group, {topic});
  try {
    auto spans = topics::planReplay(config, requestOf(command, topic));
    long long total = 0;
    for (const auto& span : spans) total += span.count();
    nlohmann::json plan = {{"topic", topic},
                           {"handler", "smsgw-" + spec.name},
                           {"group", group},
                           {"live_group", group == spec.liveGroup()},
                           {"records", total},
                           {"partitions", planJson(spans)},
                           {"executed", command.execute}};
    if (!command.execute) {
      std::printf("%s\n", plan.dump().c_str());
      std::fprintf(stderr, "dry run: nothing was re-processed; add --execute to run it\n");
      return 0;
    }
    // The replay is a member of its group while it runs, registered before it looks for
    // others: of two replays started at once into one group, each sees the other and refuses.
    auto self = db::thisProcess("replay", group);
    {
      db::Session sql(context.db);
      db::beat(*sql, self, context.clock.now());
    }
    auto heartbeat = std::make_unique<Periodic>("replay heartbeat", db::kHeartbeatInterval, [&] {
      db::Session sql(context.db);
      db::beat(*sql, self, context.clock.now());
    });
    auto leave = [&] {
      heartbeat.reset();
      db::Session sql(context.db);
      db::stopped(*sql, self, context.clock.now());
    };
    if (auto busy = groupBusy(context, config, self)) {
      leave();
      std::fprintf(stderr, "replay refused: %s\n", busy->c_str());
      return 2;
    }
    context.relay.start();
    topics::RecordRunner runner(config, context.producer, make_handler(context));
    topics::ReplayOptions options;
    options.on_progress = [&topic](const topics::ReplayProgress& p) { printProgress(topic, p); };
    auto done = topics::runReplay(config, spans, runner, options, topics::stopOnSignals());
    // What the handlers wrote to the outbox leaves now, if no other process leads the relay.
    while (context.relay.publishPending() > 0) {
    }
    context.relay.stop();
    leave();
    plan["handled"] = done.done;
    plan["applied"] = done.applied;
    plan["already_applied"] = done.unchanged;
    plan["dead_lettered"] = done.dead_lettered;
    plan["seconds"] = done.seconds;
    plan["complete"] = done.done == total;
    std::printf("%s\n", plan.dump().c_str());
    return done.done == total ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "replay failed: %s\n", db::describeError(e).c_str());
    return 1;
  }
}

}  // namespace smsgw::workers
