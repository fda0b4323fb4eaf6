// consume_probe: a real consumer process for the consumer-loop tests. Handles records of one
// run (payload {"run": RUN, "id": ID}) idempotently: every delivery is counted in
// probe_attempts, the effect is one row per id in probe_effects (natural key). A payload that
// is not JSON is a permanent error (dead-lettered). Slow on purpose so it can be killed mid-batch.
#include <soci/soci.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <thread>

#include "db/database.h"
#include "domain/log.h"
#include "topics/consumer_loop.h"
#include "topics/records.h"

int main(int argc, char** argv) {
  using namespace smsgw;
  CLI::App app{"consumer probe"};
  std::string database_url, brokers, group, topic, run;
  int delay_ms = 50;
  app.add_option("--database-url", database_url)->required();
  app.add_option("--brokers", brokers)->required();
  app.add_option("--group", group)->required();
  app.add_option("--topic", topic)->required();
  app.add_option("--run", run)->required();
  app.add_option("--delay-ms", delay_ms);
  CLI11_PARSE(app, argc, argv);
  initLogging("consume-probe");

  const auto& stop = topics::stopOnSignals();
  db::Database db(database_url, 2);
  topics::Producer producer(brokers, "consume-probe");
  topics::ConsumerLoop loop(
      {brokers, group, {topic}, 6000}, producer, [&](const topics::Record& record) {
        auto payload = nlohmann::json::parse(record.payload, nullptr, false);
        if (payload.is_discarded()) throw topics::PermanentError("payload is not JSON");
        if (payload.value("run", "") != run) return;
        std::string id = payload.value("id", "");
        db::Session sql(db);
        soci::transaction tx(*sql);
        *sql << "INSERT INTO probe_attempts (id) VALUES (:id)", soci::use(id);
        *sql << "INSERT INTO probe_effects (id) VALUES (:id) ON CONFLICT DO NOTHING", soci::use(id);
        std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
        tx.commit();
      });
  loop.run(stop);
  return 0;
}
