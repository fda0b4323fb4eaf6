#include "topics/kafka_handles.h"

#include <spdlog/spdlog.h>

#include <stdexcept>

namespace smsgw::topics {

namespace {

// librdkafka's own lines (a broker down, a request timed out, a group session lost) go to the
// process's log as JSON like every other line, instead of raw text on standard error.
void onKafkaLog(const rd_kafka_t* client, int level, const char* facility, const char* text) {
  auto severity = level <= 3   ? spdlog::level::err
                  : level == 4 ? spdlog::level::warn
                  : level <= 6 ? spdlog::level::info
                               : spdlog::level::debug;
  spdlog::log(severity, "kafka {} {}: {}", rd_kafka_name(client), facility, text);
}

}  // namespace

KafkaConf newKafkaConf() {
  KafkaConf conf(rd_kafka_conf_new());
  rd_kafka_conf_set_log_cb(conf.get(), onKafkaLog);
  return conf;
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
  conf.release();  // NOLINT(bugprone-unused-return-value): librdkafka owns it now
  return KafkaHandle(handle);
}

}  // namespace smsgw::topics
