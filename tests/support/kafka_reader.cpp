#include "tests/support/kafka_reader.h"

#include "adapters/env.h"
#include "domain/ids.h"
#include "topics/kafka_handles.h"

namespace smsgw::testing {

std::string brokers() {
  return env::kafkaBrokers();
}

std::vector<topics::Record> readRecords(const std::string& topic,
                                        const std::function<bool(const topics::Record&)>& wanted,
                                        size_t count, std::chrono::seconds timeout) {
  std::string group = "test-reader-" + randomBase62(8);
  topics::KafkaConf conf = topics::newKafkaConf();
  topics::setKafkaConf(conf.get(), "bootstrap.servers", brokers());
  topics::setKafkaConf(conf.get(), "group.id", group);
  topics::setKafkaConf(conf.get(), "auto.offset.reset", "earliest");
  topics::setKafkaConf(conf.get(), "enable.auto.commit", "false");
  topics::KafkaHandle consumer = topics::newKafka(RD_KAFKA_CONSUMER, std::move(conf));
  rd_kafka_poll_set_consumer(consumer.get());
  topics::PartitionList list(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_list_add(list.get(), topic.c_str(), RD_KAFKA_PARTITION_UA);
  rd_kafka_subscribe(consumer.get(), list.get());

  std::vector<topics::Record> out;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (out.size() < count && std::chrono::steady_clock::now() < deadline) {
    topics::KafkaMessage m(rd_kafka_consumer_poll(consumer.get(), 200));
    if (!m || m->err) continue;
    topics::Record r = topics::recordFromMessage(m.get());
    if (wanted(r)) out.push_back(std::move(r));
  }
  rd_kafka_consumer_close(consumer.get());
  return out;
}

}  // namespace smsgw::testing
