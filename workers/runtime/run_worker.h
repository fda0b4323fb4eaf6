#pragma once
// The one wiring every worker main() shares: config from the environment, the database pool,
// the producer, the outbox relay and the consume loop. Returns the process exit code.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "db/database.h"
#include "domain/clock.h"
#include "topics/consumer_loop.h"
#include "topics/outbox_relay.h"
#include "topics/producer.h"

namespace smsgw::workers {

struct WorkerContext {
  db::Database& db;
  topics::Producer& producer;
  topics::OutboxRelay& relay;
  const Clock& clock;
};

struct WorkerSpec {
  WorkerSpec(std::string worker_name, std::vector<std::string> consumed)
      : name(std::move(worker_name)), topics(std::move(consumed)) {}

  std::string name;                 // process and consumer-group name, e.g. "sender"
  std::vector<std::string> topics;  // topics consumed
  // Optional time-based work beside the consume loop (DESIGN.md rule 5), run on its own thread
  // every `periodic_interval` until shutdown; a failing run is logged and retried next time.
  std::function<void(WorkerContext&)> periodic;
  std::chrono::milliseconds periodic_interval{60000};
  // How many consume loops run side by side (topics::runConsumeLoops): a slow record then holds
  // up only its own partition. More loops than partitions would sit idle.
  int consume_loops = 1;
};

// A worker's own settings, read before runWorker: on a bad or missing one (a production
// secret left at its local default, say) the process says why and exits 1.
template <typename Read>
auto configOrExit(Read read) {
  try {
    return read();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cannot start: %s\n", e.what());
    std::exit(1);
  }
}

// `make_handler` is called once per consume loop; each handler is used by one thread only.
int runWorker(const WorkerSpec& spec,
              const std::function<topics::RecordHandler(WorkerContext&)>& make_handler);

}  // namespace smsgw::workers
