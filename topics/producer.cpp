#include "topics/producer.h"

#include <librdkafka/rdkafka.h>
#include <spdlog/spdlog.h>

namespace smsgw::topics {
namespace {

void setConf(rd_kafka_conf_t* conf, const char* name, const std::string& value) {
  char err[512];
  if (rd_kafka_conf_set(conf, name, value.c_str(), err, sizeof err) != RD_KAFKA_CONF_OK) {
    throw ProduceError(std::string("kafka config ") + name + ": " + err);
  }
}

void onDelivery(rd_kafka_t*, const rd_kafka_message_t* message, void*) {
  auto* promise = static_cast<std::promise<void>*>(message->_private);
  if (!promise) return;
  if (message->err) {
    promise->set_exception(std::make_exception_ptr(ProduceError(rd_kafka_err2str(message->err))));
  } else {
    promise->set_value();
  }
  delete promise;
}

}  // namespace

Producer::Producer(const std::string& brokers, const std::string& client_id) {
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  setConf(conf, "bootstrap.servers", brokers);
  setConf(conf, "client.id", client_id);
  setConf(conf, "enable.idempotence", "true");
  setConf(conf, "acks", "all");
  setConf(conf, "linger.ms", "2");
  setConf(conf, "message.timeout.ms", "30000");
  rd_kafka_conf_set_dr_msg_cb(conf, onDelivery);
  char err[512];
  rk_ = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
  if (!rk_) {
    rd_kafka_conf_destroy(conf);
    throw ProduceError(std::string("kafka producer: ") + err);
  }
  poller_ = std::thread([this] {
    while (!stopping_.load()) rd_kafka_poll(rk_, 100);
  });
}

Producer::~Producer() {
  rd_kafka_flush(rk_, 10000);
  stopping_ = true;
  poller_.join();
  rd_kafka_poll(rk_, 0);
  rd_kafka_destroy(rk_);
}

std::future<void> Producer::produce(const std::string& topic, const std::string& key,
                                    const std::string& payload, const RecordHeaders& headers) {
  auto* promise = new std::promise<void>();
  auto future = promise->get_future();
  rd_kafka_headers_t* hdrs = rd_kafka_headers_new(headers.size());
  for (const auto& [name, value] : headers) {
    rd_kafka_header_add(hdrs, name.c_str(), static_cast<ssize_t>(name.size()), value.data(),
                        static_cast<ssize_t>(value.size()));
  }
  // librdkafka's RD_KAFKA_V_* macros expand to C casts.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
  rd_kafka_resp_err_t err = rd_kafka_producev(
      rk_, RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_KEY(key.data(), key.size()),
      RD_KAFKA_V_VALUE(const_cast<char*>(payload.data()), payload.size()),
      RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_HEADERS(hdrs),
      RD_KAFKA_V_OPAQUE(promise), RD_KAFKA_V_END);
#pragma GCC diagnostic pop
  if (err) {
    rd_kafka_headers_destroy(hdrs);  // ownership passes to librdkafka only on success
    delete promise;
    std::promise<void> failed;
    failed.set_exception(std::make_exception_ptr(ProduceError(rd_kafka_err2str(err))));
    return failed.get_future();
  }
  return future;
}

void Producer::produceSync(const std::string& topic, const std::string& key,
                           const std::string& payload, const RecordHeaders& headers,
                           std::chrono::milliseconds timeout) {
  auto future = produce(topic, key, payload, headers);
  if (future.wait_for(timeout) != std::future_status::ready)
    throw ProduceError("timed out waiting for broker ack");
  future.get();
}

}  // namespace smsgw::topics
