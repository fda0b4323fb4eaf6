#include "topics/kafka_handles.h"

#include <stdexcept>

namespace smsgw::topics {

KafkaConf newKafkaConf() {
  return KafkaConf(rd_kafka_conf_new());
}

void setKafkaConf(rd_kafka_conf_t* conf, const char* name, const std::string& value) {
  char err[512];
  if (rd_kafka_conf_set(conf, name, value.c_str(), err, sizeof err) != RD_KAFKA_CONF_OK)
    throw std::runtime_error(std::string("kafka config ") + name + ": " + err);
}

void setKafkaConfs(rd_kafka_conf_t* conf, const std::map<std::string, std::string>& properties) {
  for (const auto& [name, value] : properties) setKafkaConf(conf, name.c_str(), value);
}

KafkaHandle newKafka(rd_kafka_type_t type, KafkaConf conf) {
  char err[512];
  rd_kafka_t* handle = rd_kafka_new(type, conf.get(), err, sizeof err);
  if (!handle) throw std::runtime_error(std::string("kafka client: ") + err);
  conf.release();  // librdkafka owns it now
  return KafkaHandle(handle);
}

}  // namespace smsgw::topics
