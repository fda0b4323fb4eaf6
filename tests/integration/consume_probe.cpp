// consume_probe: a real consumer process for the consumer-loop tests. Handles records of one
// run (payload {"run": RUN, "id": ID}) idempotently: every delivery is counted in
// probe_attempts, the effect is one row per id in probe_effects (natural key). A payload that
// is not JSON is a permanent error (dead-lettered). Slow on purpose so it can be killed mid-batch.
// With --loops it runs that many consume loops side by side; the record --slow-id takes
// --slow-ms before it is handled. Each effect notes its partition and when it was handled.
#include <soci/soci.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <thread>

#include "adapters/log.h"
#include "db/database.h"
#include "topics/consumer_loop.h"
#include "topics/records.h"

int main(int argc, char** argv) {
  using namespace smsgw;
  CLI::App app{"consumer probe"};
  std::string database_url, brokers, group, topic, run;
  int delay_ms = 50, loops = 1, slow_ms = 0;
  std::string slow_id;
  app.add_option("--database-url", database_url)->required();
  app.add_option("--brokers", brokers)->required();
  app.add_option("--group", group)->required();
  app.add_option("--topic", topic)->required();
  app.add_option("--run", run)->required();
  app.add_option("--delay-ms", delay_ms);
  app.add_option("--loops", loops);
  app.add_option("--slow-id", slow_id);
  app.add_option("--slow-ms", slow_ms);
  CLI11_PARSE(app, argc, argv);
  initLogging("consume-probe");

  const auto& stop = topics::stopOnSignals();
  db::Database db(database_url, static_cast<size_t>(loops + 1));
  topics::Producer producer(brokers, "consume-probe");
  auto handler = [&](const topics::Record& record) {
    auto payload = nlohmann::json::parse(record.payload, nullptr, false);
    if (payload.is_discarded()) throw topics::PermanentError("payload is not JSON");
    // it.scratch also carries other tests' records: anything not of this run is passed over.
    if (!payload.is_object() || !payload.contains("run") || payload["run"] != run)
      return topics::Outcome::unchanged();
    std::string id = payload.value("id", "");
    if (id == slow_id) std::this_thread::sleep_for(std::chrono::milliseconds(slow_ms));
    db::Session sql(db);
    soci::transaction tx(*sql);
    *sql << "INSERT INTO probe_attempts (id) VALUES (:id)", soci::use(id);
    *sql << "INSERT INTO probe_effects (id, partition) VALUES (:id, :p) ON CONFLICT DO NOTHING",
        soci::use(id), soci::use(record.partition);
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    tx.commit();
    return topics::Outcome::done();
  };
  topics::ConsumerConfig config;
  config.brokers = brokers;
  config.group_id = group;
  config.topics = {topic};
  topics::runConsumeLoops(
      config, loops, producer, [&] { return topics::RecordHandler(handler); }, stop);
  return 0;
}
