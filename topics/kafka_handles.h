#pragma once
// Owners for librdkafka's C handles, so each is destroyed exactly once on every path (an
// exception between creating and handing over included), and no code calls a destroy
// function itself. For .cpp files only: it brings in librdkafka's header.

#include <librdkafka/rdkafka.h>

#include <map>
#include <memory>
#include <string>

namespace smsgw::topics {

struct KafkaDestroy {
  void operator()(rd_kafka_t* handle) const { rd_kafka_destroy(handle); }
  void operator()(rd_kafka_conf_t* conf) const { rd_kafka_conf_destroy(conf); }
  void operator()(rd_kafka_topic_partition_list_t* list) const {
    rd_kafka_topic_partition_list_destroy(list);
  }
  void operator()(rd_kafka_message_t* message) const { rd_kafka_message_destroy(message); }
  void operator()(rd_kafka_headers_t* headers) const { rd_kafka_headers_destroy(headers); }
  void operator()(rd_kafka_topic_t* topic) const { rd_kafka_topic_destroy(topic); }
  void operator()(const rd_kafka_metadata_t* metadata) const {
    rd_kafka_metadata_destroy(metadata);
  }
};

using KafkaHandle = std::unique_ptr<rd_kafka_t, KafkaDestroy>;
using KafkaConf = std::unique_ptr<rd_kafka_conf_t, KafkaDestroy>;
using PartitionList = std::unique_ptr<rd_kafka_topic_partition_list_t, KafkaDestroy>;
using KafkaMessage = std::unique_ptr<rd_kafka_message_t, KafkaDestroy>;
using KafkaHeaders = std::unique_ptr<rd_kafka_headers_t, KafkaDestroy>;
using KafkaTopic = std::unique_ptr<rd_kafka_topic_t, KafkaDestroy>;
using KafkaMetadata = std::unique_ptr<const rd_kafka_metadata_t, KafkaDestroy>;

KafkaConf newKafkaConf();
// Sets one property; throws std::runtime_error naming it when librdkafka refuses it.
void setKafkaConf(rd_kafka_conf_t* conf, const char* name, const std::string& value);
// Sets each of `properties` (the KAFKA_* passthrough), the same way.
void setKafkaConfs(rd_kafka_conf_t* conf, const std::map<std::string, std::string>& properties);
// A client made from `conf`, which it then owns (librdkafka takes it only on success); throws
// std::runtime_error with librdkafka's reason on failure.
KafkaHandle newKafka(rd_kafka_type_t type, KafkaConf conf);

}  // namespace smsgw::topics
