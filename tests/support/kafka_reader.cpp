#include "tests/support/kafka_reader.h"

#include <librdkafka/rdkafka.h>

#include <memory>
#include <stdexcept>

#include "adapters/env.h"
#include "domain/ids.h"

namespace smsgw::testing {

std::string brokers() {
  return env::kafkaBrokers();
}

std::vector<topics::Record> readRecords(const std::string& topic,
                                        const std::function<bool(const topics::Record&)>& wanted,
                                        size_t count, std::chrono::seconds timeout) {
  char err[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  std::string group = "test-reader-" + randomBase62(8);
  rd_kafka_conf_set(conf, "bootstrap.servers", brokers().c_str(), err, sizeof err);
  rd_kafka_conf_set(conf, "group.id", group.c_str(), err, sizeof err);
  rd_kafka_conf_set(conf, "auto.offset.reset", "earliest", err, sizeof err);
  rd_kafka_conf_set(conf, "enable.auto.commit", "false", err, sizeof err);
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, err, sizeof err);
  if (!rk) throw std::runtime_error(err);
  std::unique_ptr<rd_kafka_t, decltype(&rd_kafka_destroy)> guard(rk, rd_kafka_destroy);
  rd_kafka_poll_set_consumer(rk);
  rd_kafka_topic_partition_list_t* list = rd_kafka_topic_partition_list_new(1);
  rd_kafka_topic_partition_list_add(list, topic.c_str(), RD_KAFKA_PARTITION_UA);
  rd_kafka_subscribe(rk, list);
  rd_kafka_topic_partition_list_destroy(list);

  std::vector<topics::Record> out;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (out.size() < count && std::chrono::steady_clock::now() < deadline) {
    rd_kafka_message_t* m = rd_kafka_consumer_poll(rk, 200);
    if (!m) continue;
    if (!m->err) {
      topics::Record r = topics::recordFromMessage(m);
      if (wanted(r)) out.push_back(std::move(r));
    }
    rd_kafka_message_destroy(m);
  }
  rd_kafka_consumer_close(rk);
  return out;
}

}  // namespace smsgw::testing
