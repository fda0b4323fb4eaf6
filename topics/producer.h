#pragma once
// Idempotent Kafka producer (enable.idempotence, acks=all). `produce` returns a future that
// completes when the broker acknowledged the record or fails with ProduceError.
// Thread-safe; owns one librdkafka handle and a thread serving its delivery reports.

#include <atomic>
#include <chrono>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <thread>

struct rd_kafka_s;

namespace smsgw::topics {

class ProduceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using RecordHeaders = std::map<std::string, std::string>;
// The header that carries the id of the request a record came from (adapters/log.h).
inline constexpr const char* kRequestIdHeader = "request-id";
// librdkafka settings by name ("security.protocol" = "SASL_SSL"), applied after our own.
using KafkaProperties = std::map<std::string, std::string>;

// Destroys the producer's librdkafka handle (defined beside it, so this header stays light).
struct ProducerHandleDestroy {
  void operator()(rd_kafka_s* handle) const;
};

class Producer {
 public:
  Producer(const std::string& brokers, const std::string& client_id,
           const KafkaProperties& properties = {});
  ~Producer();
  Producer(const Producer&) = delete;
  Producer& operator=(const Producer&) = delete;

  std::future<void> produce(const std::string& topic, const std::string& key,
                            const std::string& payload, const RecordHeaders& headers = {});
  // Whether a broker answers a metadata request within `timeout` (readiness checks).
  bool brokerReachable(std::chrono::milliseconds timeout);
  // Produces and waits for the acknowledgement; throws ProduceError.
  void produceSync(const std::string& topic, const std::string& key, const std::string& payload,
                   const RecordHeaders& headers = {},
                   std::chrono::milliseconds timeout = std::chrono::seconds(30));

 private:
  std::unique_ptr<rd_kafka_s, ProducerHandleDestroy> rk_;
  std::atomic<bool> stopping_{false};
  std::thread poller_;
};

}  // namespace smsgw::topics
