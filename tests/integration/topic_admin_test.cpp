// `smsgw-admin topics check|create` against Apache Kafka nodes of the test's own: on an empty
// cluster, beside a topic an operator made with the wrong partition count (Kafka's own
// kafka-topics tool), on three nodes as deploy/compose.yaml runs them, and with no broker.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "domain/ids.h"
#include "tests/support/kafka_cluster.h"
#include "topics/catalogue.h"

using namespace smsgw;
using namespace smsgw::testing;

namespace {

struct ToolRun {
  int exit_code = -1;
  std::string out, log;
};

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

ToolRun runTool(const std::string& path, const std::vector<std::string>& args,
                const std::map<std::string, std::string>& env) {
  std::string base = ::testing::TempDir() + "/" + newId("tool");
  ChildProcess process(path, args, env, base + ".log", base + ".out");
  process.start();
  ToolRun run;
  run.exit_code = process.waitForExit(std::chrono::minutes(2)).value_or(-1);
  run.out = readFile(base + ".out");
  run.log = readFile(base + ".log");
  return run;
}

class TopicAdminTest : public ::testing::Test {
 protected:
  explicit TopicAdminTest(int nodes = 1)
      : kafka_("topics-" + newId("t").substr(4, 8), nodes), nodes_(nodes) {}
  void SetUp() override { ASSERT_TRUE(kafka_.start()); }

  ToolRun admin(const std::string& command, const std::string& brokers) {
    std::vector<std::string> args = {"topics", command};
    if (command == "create")
      args.insert(args.end(), {"--replication-factor", std::to_string(nodes_)});
    return runTool(SMSGW_ADMIN_PATH, args,
                   {{"SMSGW_ENVIRONMENT", "local"}, {"KAFKA_BROKERS", brokers}});
  }
  // The answer's topics by name: {partitions_found, ok}.
  static std::map<std::string, std::pair<int, bool>> topicsOf(const ToolRun& run) {
    std::map<std::string, std::pair<int, bool>> topics;
    auto answer = nlohmann::json::parse(run.out);
    for (const auto& topic : answer.at("topics"))
      topics[topic.at("name")] = {topic.at("partitions_found"), topic.at("ok")};
    return topics;
  }

  KafkaCluster kafka_;
  int nodes_;
};

class TopicAdminOnThreeNodesTest : public TopicAdminTest {
 protected:
  TopicAdminOnThreeNodesTest() : TopicAdminTest(3) {}
};

}  // namespace

TEST_F(TopicAdminTest, CreateMakesTheCatalogueAndLeavesAWrongTopicForTheOperator) {
  // An empty cluster: check names every topic and its dead letters as missing.
  ToolRun check = admin("check", kafka_.bootstrap());
  EXPECT_EQ(check.exit_code, 1) << check.log;
  auto before = topicsOf(check);
  EXPECT_EQ(before.size(), 2 * topics::allTopics().size());
  for (const auto& [name, state] : before) EXPECT_EQ(state, std::make_pair(0, false)) << name;

  // An operator made sms.outbound by hand with 2 partitions instead of the catalogue's 6.
  ToolRun made = runTool(SMSGW_KAFKA_TOOL_PATH,
                         {"topics", "--bootstrap-server", kafka_.bootstrap(), "--create", "--topic",
                          "sms.outbound", "--partitions", "2", "--replication-factor", "1"},
                         {});
  ASSERT_EQ(made.exit_code, 0) << made.out << made.log;

  // create makes every missing topic with the catalogue's partitions; the wrong one is reported
  // and left alone (changing a topic's partitions moves its keys: an operator's decision).
  ToolRun create = admin("create", kafka_.bootstrap());
  EXPECT_EQ(create.exit_code, 1) << create.log;
  for (const auto& [name, state] : topicsOf(create)) {
    if (name == "sms.outbound") {
      EXPECT_EQ(state, std::make_pair(2, false));
      continue;
    }
    const auto* spec = topics::findTopic(name);
    ASSERT_NE(spec, nullptr) << name;
    int expected =
        topics::isDeadLetterTopic(name) ? topics::kDeadLetterPartitions : spec->partitions;
    EXPECT_EQ(state, std::make_pair(expected, true)) << name;
  }

  // Running it again changes nothing; check tells the same story.
  ToolRun again = admin("create", kafka_.bootstrap());
  EXPECT_EQ(again.exit_code, 1);
  EXPECT_EQ(topicsOf(again), topicsOf(create));
  ToolRun check_after = admin("check", kafka_.bootstrap());
  EXPECT_EQ(check_after.exit_code, 1);
  EXPECT_EQ(topicsOf(check_after), topicsOf(create));

  // Once the operator recreated it right, check passes.
  ToolRun deleted = runTool(
      SMSGW_KAFKA_TOOL_PATH,
      {"topics", "--bootstrap-server", kafka_.bootstrap(), "--delete", "--topic", "sms.outbound"},
      {});
  ASSERT_EQ(deleted.exit_code, 0) << deleted.out << deleted.log;
  bool recreated = false;
  for (int attempt = 0; attempt < 20 && !recreated; ++attempt) {
    recreated = admin("create", kafka_.bootstrap()).exit_code == 0;  // deletion is asynchronous
    if (!recreated) std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  EXPECT_TRUE(recreated);
  EXPECT_EQ(admin("check", kafka_.bootstrap()).exit_code, 0);
}

// The controller answers CreateTopics before every broker has the new topics; the report that
// follows must still show them all (a CI run read an empty cluster from a broker behind).
TEST_F(TopicAdminOnThreeNodesTest, CreateReportsEveryTopicWithThreeReplicasAndTwoInSync) {
  ToolRun create = admin("create", kafka_.bootstrap());
  EXPECT_EQ(create.exit_code, 0) << create.out << create.log;
  for (const auto& [name, state] : topicsOf(create)) EXPECT_TRUE(state.second) << name;

  ToolRun described = runTool(
      SMSGW_KAFKA_TOOL_PATH,
      {"topics", "--bootstrap-server", kafka_.bootstrap(), "--describe", "--topic", "events"}, {});
  ASSERT_EQ(described.exit_code, 0) << described.log;
  EXPECT_NE(described.out.find("ReplicationFactor: 3"), std::string::npos) << described.out;
  EXPECT_NE(described.out.find("min.insync.replicas=2"), std::string::npos) << described.out;
}

TEST_F(TopicAdminTest, NoBrokerIsAnErrorThatSaysSo) {
  kafka_.node(0).kill9();
  ToolRun check = admin("check", kafka_.bootstrap());
  EXPECT_EQ(check.exit_code, 1);
  EXPECT_TRUE(check.out.empty()) << check.out;
  EXPECT_NE(check.log.find("cluster metadata"), std::string::npos) << check.log;
}
