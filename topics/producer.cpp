#include "topics/producer.h"

#include <spdlog/spdlog.h>

#include "topics/kafka_handles.h"

namespace smsgw::topics {
namespace {

// Each record carries its promise as the opaque; the delivery report takes it back.
void onDelivery(rd_kafka_t*, const rd_kafka_message_t* message, void*) {
  std::unique_ptr<std::promise<void>> promise(static_cast<std::promise<void>*>(message->_private));
  if (!promise) return;
  if (message->err) {
    promise->set_exception(std::make_exception_ptr(ProduceError(rd_kafka_err2str(message->err))));
  } else {
    promise->set_value();
  }
}

}  // namespace

void ProducerHandleDestroy::operator()(rd_kafka_s* handle) const {
  rd_kafka_destroy(handle);
}

Producer::Producer(const std::string& brokers, const std::string& client_id,
                   const KafkaProperties& properties) {
  KafkaConf conf = newKafkaConf();
  try {
    setKafkaConf(conf.get(), "bootstrap.servers", brokers);
    setKafkaConf(conf.get(), "client.id", client_id);
    setKafkaConf(conf.get(), "enable.idempotence", "true");
    setKafkaConf(conf.get(), "acks", "all");
    setKafkaConf(conf.get(), "linger.ms", "2");
    setKafkaConf(conf.get(), "message.timeout.ms", "30000");
    setKafkaConfs(conf.get(), properties);
    rd_kafka_conf_set_dr_msg_cb(conf.get(), onDelivery);
    rk_.reset(newKafka(RD_KAFKA_PRODUCER, std::move(conf)).release());
  } catch (const std::runtime_error& e) {
    throw ProduceError(e.what());
  }
  poller_ = std::thread([this] {
    while (!stopping_.load()) rd_kafka_poll(rk_.get(), 100);
  });
}

Producer::~Producer() {
  rd_kafka_flush(rk_.get(), 10000);
  stopping_ = true;
  poller_.join();
  rd_kafka_poll(rk_.get(), 0);  // the last delivery reports free their promises
}

std::future<void> Producer::produce(const std::string& topic, const std::string& key,
                                    const std::string& payload, const RecordHeaders& headers) {
  auto promise = std::make_unique<std::promise<void>>();
  auto future = promise->get_future();
  KafkaHeaders hdrs(rd_kafka_headers_new(headers.size()));
  for (const auto& [name, value] : headers) {
    rd_kafka_header_add(hdrs.get(), name.c_str(), static_cast<ssize_t>(name.size()), value.data(),
                        static_cast<ssize_t>(value.size()));
  }
  // librdkafka's RD_KAFKA_V_* macros expand to C casts.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
  rd_kafka_resp_err_t err = rd_kafka_producev(
      rk_.get(), RD_KAFKA_V_TOPIC(topic.c_str()), RD_KAFKA_V_KEY(key.data(), key.size()),
      RD_KAFKA_V_VALUE(const_cast<char*>(payload.data()), payload.size()),
      RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_HEADERS(hdrs.get()),
      RD_KAFKA_V_OPAQUE(promise.get()), RD_KAFKA_V_END);
#pragma GCC diagnostic pop
  if (err) {
    std::promise<void> failed;
    failed.set_exception(std::make_exception_ptr(ProduceError(rd_kafka_err2str(err))));
    return failed.get_future();
  }
  // librdkafka took the headers, and the delivery report will take the promise back.
  hdrs.release();     // NOLINT(bugprone-unused-return-value): librdkafka's now
  promise.release();  // NOLINT(bugprone-unused-return-value): the report's now
  return future;
}

bool Producer::brokerReachable(std::chrono::milliseconds timeout) {
  const rd_kafka_metadata_t* raw = nullptr;
  rd_kafka_resp_err_t err =
      rd_kafka_metadata(rk_.get(), 0, nullptr, &raw, static_cast<int>(timeout.count()));
  if (raw) rd_kafka_metadata_destroy(raw);
  return err == RD_KAFKA_RESP_ERR_NO_ERROR;
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
