#include "tests/support/kafka_cluster.h"

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "domain/crypto.h"
#include "topics/kafka_handles.h"

namespace smsgw::testing {
namespace {

using namespace std::chrono_literals;

// Kafka's cluster ids are 16 random bytes in unpadded base64url (StorageTool random-uuid); one
// that starts with '-' would read as an option to the tool that formats the storage.
std::string newClusterId() {
  std::string text;
  do {
    text = crypto::base64(crypto::randomBytes(16)).substr(0, 22);
    for (char& c : text) {
      if (c == '+') c = '-';
      if (c == '/') c = '_';
    }
  } while (text.front() == '-');
  return text;
}

std::string joined(const std::vector<int>& ports, int offset, bool with_ids) {
  std::string list;
  for (size_t i = 0; i < ports.size(); ++i) {
    if (!list.empty()) list += ",";
    if (with_ids) list += std::to_string(i + 1) + "@";
    list += "127.0.0.1:" + std::to_string(ports[i] + offset);
  }
  return list;
}

// A client of the cluster that asks for metadata only; never joins a group or sends.
topics::KafkaHandle metadataClient(const std::string& bootstrap) {
  topics::KafkaConf conf = topics::newKafkaConf();
  topics::setKafkaConf(conf.get(), "bootstrap.servers", bootstrap);
  topics::setKafkaConf(conf.get(), "log_level", "0");  // nodes that are down are expected
  return topics::newKafka(RD_KAFKA_PRODUCER, std::move(conf));
}

}  // namespace

KafkaCluster::KafkaCluster(const std::string& name, int nodes)
    : dir_((std::filesystem::temp_directory_path() / ("kafka-" + name)).string()),
      cluster_id_(newClusterId()) {
  int first = freeLoopbackPorts(2 * nodes);
  for (int i = 0; i < nodes; ++i) ports_.push_back(first + 2 * i);
  for (int i = 0; i < nodes; ++i) {
    std::vector<std::string> args = {"--dir",        dir_ + "/node-" + std::to_string(i + 1),
                                     "--node-id",    std::to_string(i + 1),
                                     "--port",       std::to_string(ports_[static_cast<size_t>(i)]),
                                     "--voters",     joined(ports_, 1, true),
                                     "--cluster-id", cluster_id_,
                                     "--heap",       "384m"};
    nodes_.push_back(std::make_unique<ChildProcess>(
        SMSGW_KAFKA_NODE_PATH, std::move(args), std::map<std::string, std::string>{}, logOf(i)));
  }
  std::filesystem::create_directories(dir_);
}

KafkaCluster::~KafkaCluster() {
  for (auto& node : nodes_) node->kill9();
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

std::string KafkaCluster::logOf(int index) const {
  return dir_ + "-node-" + std::to_string(index + 1) + ".log";
}

std::string KafkaCluster::bootstrap() const {
  return joined(ports_, 0, false);
}

bool KafkaCluster::start() {
  for (auto& node : nodes_) {
    if (!node->running()) node->start();
  }
  auto client = metadataClient(bootstrap());
  auto deadline = std::chrono::steady_clock::now() + 120s;
  while (std::chrono::steady_clock::now() < deadline) {
    const rd_kafka_metadata_t* raw = nullptr;
    if (rd_kafka_metadata(client.get(), 0, nullptr, &raw, 2000) == RD_KAFKA_RESP_ERR_NO_ERROR) {
      topics::KafkaMetadata metadata(raw);
      if (metadata->broker_cnt == size()) return true;
    }
    std::this_thread::sleep_for(200ms);
  }
  return false;
}

void KafkaCluster::wipe() {
  for (auto& node : nodes_) node->kill9();
  std::filesystem::remove_all(dir_);
  std::filesystem::create_directories(dir_);
}

int KafkaCluster::leaderOf(const std::string& topic, int partition) const {
  auto client = metadataClient(bootstrap());
  topics::KafkaTopic handle(rd_kafka_topic_new(client.get(), topic.c_str(), nullptr));
  const rd_kafka_metadata_t* raw = nullptr;
  if (rd_kafka_metadata(client.get(), 0, handle.get(), &raw, 5000) != RD_KAFKA_RESP_ERR_NO_ERROR)
    return -1;
  topics::KafkaMetadata metadata(raw);
  if (metadata->topic_cnt != 1) return -1;
  const auto& found = metadata->topics[0];
  for (int i = 0; i < found.partition_cnt; ++i) {
    if (found.partitions[i].id == partition && !found.partitions[i].err)
      return found.partitions[i].leader - 1;
  }
  return -1;
}

int KafkaCluster::busiestPartition(const std::string& topic) const {
  auto client = metadataClient(bootstrap());
  topics::KafkaTopic handle(rd_kafka_topic_new(client.get(), topic.c_str(), nullptr));
  const rd_kafka_metadata_t* raw = nullptr;
  if (rd_kafka_metadata(client.get(), 0, handle.get(), &raw, 5000) != RD_KAFKA_RESP_ERR_NO_ERROR)
    return 0;
  topics::KafkaMetadata metadata(raw);
  int busiest = 0;
  int64_t most = -1;
  for (int i = 0; metadata->topic_cnt == 1 && i < metadata->topics[0].partition_cnt; ++i) {
    int partition = metadata->topics[0].partitions[i].id;
    int64_t low = 0, high = 0;
    if (rd_kafka_query_watermark_offsets(client.get(), topic.c_str(), partition, &low, &high,
                                         5000) == RD_KAFKA_RESP_ERR_NO_ERROR &&
        high > most) {
      most = high;
      busiest = partition;
    }
  }
  return busiest;
}

int KafkaCluster::activeController() const {
  std::string out = dir_ + "-quorum.out";
  ChildProcess tool(SMSGW_KAFKA_TOOL_PATH,
                    {"metadata-quorum", "--bootstrap-controller", joined(ports_, 1, false),
                     "describe", "--status"},
                    {}, dir_ + "-quorum.log", out);
  tool.start();
  if (tool.waitForExit(60s).value_or(-1) != 0) return -1;
  std::ifstream in(out);
  std::stringstream text;
  text << in.rdbuf();
  std::smatch leader;
  std::string status = text.str();
  if (!std::regex_search(status, leader, std::regex(R"(LeaderId:\s*(\d+))"))) return -1;
  return std::stoi(leader[1]) - 1;
}

}  // namespace smsgw::testing
