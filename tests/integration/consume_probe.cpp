// consume_probe: a real consumer process for the consumer-loop tests. Handles records of one
// run (payload {"run": RUN, "id": ID}) idempotently: every delivery is counted in
// probe_attempts, the effect is one row per id in probe_effects (natural key). A payload that
// is not JSON is a permanent error (dead-lettered). Slow on purpose so it can be killed mid-batch.
// With --loops it runs that many consume loops side by side; the record --slow-id is held
// until the file --release-slow exists (at most two minutes), so a test decides how long it
// takes, not the machine's speed. Each effect notes its partition and when it was handled.
// With --batch it also gives the loop a batch handler: the records of a poll (up to --max-batch)
// in one transaction, --delay-ms each inside it, every effect noting its batch's size. A record
// {"fail": true} fails inside the transaction (division by zero), alone or in a batch. A record
// {"bad_text": true} makes PostgreSQL refuse a value (invalid UTF-8, SQLSTATE 22021) after
// counting its try in the sequence probe_bad_text_tries; failures are classified as workers
// classify them (topics::classifyDatabaseFailure).
#include <soci/soci.h>

#include <CLI/CLI.hpp>
#include <filesystem>
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
  int delay_ms = 50, loops = 1;
  std::string slow_id, release_slow;
  bool batch = false;
  int max_batch = 200;
  app.add_option("--database-url", database_url)->required();
  app.add_option("--brokers", brokers)->required();
  app.add_option("--group", group)->required();
  app.add_option("--topic", topic)->required();
  app.add_option("--run", run)->required();
  app.add_option("--delay-ms", delay_ms);
  app.add_option("--loops", loops);
  app.add_option("--slow-id", slow_id);
  app.add_option("--release-slow", release_slow);
  app.add_flag("--batch", batch);
  app.add_option("--max-batch", max_batch);
  CLI11_PARSE(app, argc, argv);
  initLogging("consume-probe");

  const auto& stop = topics::stopOnSignals();
  db::Database db(database_url, static_cast<size_t>(loops + 1));
  topics::Producer producer(brokers, "consume-probe");
  // The id of a record of this run, or "" for another test's record on it.scratch.
  auto idOf = [&](const topics::Record& record) {
    auto payload = nlohmann::json::parse(record.payload, nullptr, false);
    if (payload.is_discarded()) throw topics::PermanentError("payload is not JSON");
    if (!payload.is_object() || !payload.contains("run") || payload["run"] != run)
      return std::string();
    if (payload.value("fail", false)) return "fail:" + payload.value("id", "");
    if (payload.value("bad_text", false)) return "bad_text:" + payload.value("id", "");
    return payload.value("id", "");
  };
  auto apply = [&](soci::session& sql, const std::string& id, int partition, size_t batch_size) {
    if (id.starts_with("fail:")) {
      int never = 0;
      sql << "SELECT 1 / 0", soci::into(never);
    }
    if (id.starts_with("bad_text:")) {
      long long tries = 0;  // a sequence: counted even though the transaction rolls back
      std::string text;
      sql << "SELECT nextval('probe_bad_text_tries')", soci::into(tries);
      sql << "SELECT convert_from('\\xc3'::bytea, 'UTF8')", soci::into(text);
    }
    sql << "INSERT INTO probe_attempts (id) VALUES (:id)", soci::use(id);
    sql << "INSERT INTO probe_effects (id, partition, batch_size) VALUES (:id, :p, :n) "
           "ON CONFLICT DO NOTHING",
        soci::use(id), soci::use(partition), soci::use(static_cast<int>(batch_size));
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
  };
  auto one = [&](const topics::Record& record) {
    std::string id = idOf(record);
    if (id.empty()) return topics::Outcome::unchanged();
    if (id == slow_id) {
      auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(2);
      while (!std::filesystem::exists(release_slow) && std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    db::Session sql(db);
    soci::transaction tx(*sql);
    apply(*sql, id, record.partition, 1);
    tx.commit();
    return topics::Outcome::done();
  };
  auto many = [&](const std::vector<topics::Record>& records) {
    std::vector<std::string> ids;
    ids.reserve(records.size());
    for (const auto& record : records) ids.push_back(idOf(record));
    std::vector<topics::Outcome> outcomes;
    outcomes.reserve(records.size());
    db::Session sql(db);
    soci::transaction tx(*sql);
    for (size_t i = 0; i < records.size(); ++i) {
      if (!ids[i].empty()) apply(*sql, ids[i], records[i].partition, records.size());
      outcomes.push_back(ids[i].empty() ? topics::Outcome::unchanged() : topics::Outcome::done());
    }
    tx.commit();
    return outcomes;
  };
  topics::ConsumerConfig config;
  config.brokers = brokers;
  config.group_id = group;
  config.topics = {topic};
  config.max_batch_records = max_batch;
  config.classify = topics::classifyDatabaseFailure;
  topics::runConsumeLoops(
      config, loops, producer,
      [&] { return batch ? topics::ConsumerHandlers(one, many) : topics::ConsumerHandlers(one); },
      stop);
  return 0;
}
