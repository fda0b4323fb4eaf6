// smsgw-broker: the embedded Kafka-protocol broker for local stacks and tests.
// Runs librdkafka's mock cluster in this process, creates every catalogue topic (and its
// .dlq) with its partition count, writes the bootstrap address to a file every other process
// reads (the mock binds random ports), and runs until SIGTERM. Data lives in memory only.
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <thread>

#include "topics/catalogue.h"
#include "topics/kafka_handles.h"

namespace {

std::atomic<bool> g_stop{false};

struct MockClusterDestroy {
  void operator()(rd_kafka_mock_cluster_t* cluster) const {
    rd_kafka_mock_cluster_destroy(cluster);
  }
};

void writeAtomically(const std::string& path, const std::string& content) {
  std::string temp = path + ".tmp";
  {
    std::ofstream out(temp);
    out << content << "\n";
  }
  std::filesystem::rename(temp, path);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Embedded Kafka broker (librdkafka mock cluster)"};
  std::string bootstrap_file;
  int brokers = 1;
  app.add_option("--bootstrap-file", bootstrap_file, "where to write the bootstrap address")
      ->required();
  std::vector<std::string> extra_topics;
  app.add_option("--brokers", brokers, "number of mock brokers");
  app.add_option("--extra-topic", extra_topics,
                 "NAME:PARTITIONS of a topic outside the catalogue (tests)");
  CLI11_PARSE(app, argc, argv);

  std::signal(SIGTERM, [](int) { g_stop = true; });
  std::signal(SIGINT, [](int) { g_stop = true; });

  // The mock cluster lives inside a client handle; both are released on every way out.
  smsgw::topics::KafkaHandle rk;
  try {
    smsgw::topics::KafkaConf conf = smsgw::topics::newKafkaConf();
    smsgw::topics::setKafkaConf(conf.get(), "log_level", "3");
    rk = smsgw::topics::newKafka(RD_KAFKA_PRODUCER, std::move(conf));
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  std::unique_ptr<rd_kafka_mock_cluster_t, MockClusterDestroy> owned_cluster(
      rd_kafka_mock_cluster_new(rk.get(), brokers));
  rd_kafka_mock_cluster_t* cluster = owned_cluster.get();
  if (!cluster) {
    std::cerr << "could not start the mock cluster\n";
    return 1;
  }
  for (const auto& topic : smsgw::topics::allTopics()) {
    std::string name(topic.name);
    std::string dlq = smsgw::topics::deadLetterTopic(topic.name);
    if (rd_kafka_mock_topic_create(cluster, name.c_str(), topic.partitions, 1) ||
        rd_kafka_mock_topic_create(cluster, dlq.c_str(), smsgw::topics::kDeadLetterPartitions, 1)) {
      std::cerr << "could not create topic " << name << "\n";
      return 1;
    }
  }
  for (const auto& extra : extra_topics) {
    auto colon = extra.find(':');
    std::string name = extra.substr(0, colon);
    int partitions = colon == std::string::npos ? 1 : std::stoi(extra.substr(colon + 1));
    std::string dlq = smsgw::topics::deadLetterTopic(name);
    if (rd_kafka_mock_topic_create(cluster, name.c_str(), partitions, 1) ||
        rd_kafka_mock_topic_create(cluster, dlq.c_str(), smsgw::topics::kDeadLetterPartitions, 1)) {
      std::cerr << "could not create topic " << name << "\n";
      return 1;
    }
  }
  std::string bootstraps = rd_kafka_mock_cluster_bootstraps(cluster);
  writeAtomically(bootstrap_file, bootstraps);
  std::cout << "broker ready at " << bootstraps << " (written to " << bootstrap_file << ")"
            << std::endl;

  while (!g_stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(200));
  std::filesystem::remove(bootstrap_file);
  owned_cluster.reset();  // before the handle it lives in
  std::cout << "broker stopped" << std::endl;
  return 0;
}
