// relay_probe: a process that runs nothing but an outbox relay, for the test that kills relays
// in the middle of publishing (outbox_relay_test.cpp). Runs until SIGTERM or SIGKILL.
#include <CLI/CLI.hpp>
#include <thread>

#include "adapters/log.h"
#include "db/database.h"
#include "topics/consumer_loop.h"
#include "topics/outbox_relay.h"

int main(int argc, char** argv) {
  using namespace smsgw;
  CLI::App app{"outbox relay probe"};
  std::string database_url, brokers;
  app.add_option("--database-url", database_url)->required();
  app.add_option("--brokers", brokers)->required();
  CLI11_PARSE(app, argc, argv);
  initLogging("relay-probe");
  const auto& stop = topics::stopOnSignals();
  db::Database db(database_url, 2);
  topics::Producer producer(brokers, "relay-probe");
  topics::OutboxRelayConfig config;
  config.sweep_interval = std::chrono::milliseconds(100);
  topics::OutboxRelay relay(db, producer, config);
  relay.start();
  while (!stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  relay.stop();
  return 0;
}
