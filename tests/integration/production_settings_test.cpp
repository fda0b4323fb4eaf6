// Processes started outside a local stack refuse the carrier simulator's published secrets
// (issue 19, item 9): a production deployment that forgot to set them must not start.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "adapters/http_carrier_client.h"
#include "tests/support/child_process.h"

using namespace smsgw::testing;
using namespace std::chrono_literals;

namespace {

struct Outcome {
  std::optional<int> exit_status;
  std::string output;
};

Outcome startInProduction(const std::string& binary, std::map<std::string, std::string> env) {
  std::string log = ::testing::TempDir() + "production-settings-" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".log";
  std::remove(log.c_str());
  env["SMSGW_ENVIRONMENT"] = "production";
  // What every API start below sets correctly, unless the test says otherwise.
  env.emplace("OAUTH_FORM_SECRET", "a-real-form-secret");
  env.emplace("PUBLIC_BASE_URL", "https://api.example.ca");
  env.emplace("TELNYX_MESSAGING_PROFILE_ID", "40017a8c-real-profile");
  env.emplace("CARRIER_WEBHOOK_URL", "");  // not ops/test's local http:// one
  ChildProcess process(binary, {}, env, log);
  process.start();
  Outcome outcome{process.waitForExit(30s), ""};
  std::stringstream text;
  text << std::ifstream(log).rdbuf();
  outcome.output = text.str();
  return outcome;
}

}  // namespace

// RFC 8032's first test key: a well-formed public key that is not the simulator's.
constexpr const char* kRealLookingKey = "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=";

TEST(ProductionSettings, TheApiRefusesTheSimulatorsWebhookKeyAndOneThatIsNoKey) {
  // Anyone can sign with the simulator's published private half.
  for (const char* key : {smsgw::kSimulatorWebhookPublicKey, "not-a-key", "AAAA"}) {
    auto outcome = startInProduction(SMSGW_API_PATH, {{"CARRIER_API_KEY", "a-real-key"},
                                                      {"TELNYX_PUBLIC_KEY", key},
                                                      {"VERIFICATION_CODE_SECRET", "a-real-secret"},
                                                      {"API_PORT", "0"}});
    ASSERT_TRUE(outcome.exit_status) << key << " still running: " << outcome.output;
    EXPECT_NE(*outcome.exit_status, 0) << key;
    EXPECT_NE(outcome.output.find("TELNYX_PUBLIC_KEY"), std::string::npos) << outcome.output;
  }
}

TEST(ProductionSettings, TheApiRefusesTheSimulatorsKeyAndAMissingCodeSecret) {
  auto with_sim_key = startInProduction(SMSGW_API_PATH, {{"CARRIER_API_KEY", "sim-key"},
                                                         {"TELNYX_PUBLIC_KEY", kRealLookingKey},
                                                         {"VERIFICATION_CODE_SECRET", "real"},
                                                         {"API_PORT", "0"}});
  ASSERT_TRUE(with_sim_key.exit_status);
  EXPECT_NE(with_sim_key.output.find("CARRIER_API_KEY"), std::string::npos) << with_sim_key.output;
  auto without_code_secret =
      startInProduction(SMSGW_API_PATH, {{"CARRIER_API_KEY", "real"},
                                         {"TELNYX_PUBLIC_KEY", kRealLookingKey},
                                         {"VERIFICATION_CODE_SECRET", ""},
                                         {"API_PORT", "0"}});
  ASSERT_TRUE(without_code_secret.exit_status);
  EXPECT_NE(without_code_secret.output.find("VERIFICATION_CODE_SECRET"), std::string::npos)
      << without_code_secret.output;
}

TEST(ProductionSettings, TheSenderRefusesTheSimulatorsKey) {
  auto outcome = startInProduction(SMSGW_SENDER_PATH, {{"CARRIER_API_KEY", "sim-key"}});
  ASSERT_TRUE(outcome.exit_status) << "still running: " << outcome.output;
  EXPECT_EQ(*outcome.exit_status, 1);
  EXPECT_NE(outcome.output.find("CARRIER_API_KEY"), std::string::npos) << outcome.output;
}

TEST(ProductionSettings, AWorkerRefusesTheSimulatorsMessagingProfile) {
  auto outcome = startInProduction(SMSGW_SENDER_PATH,
                                   {{"CARRIER_API_KEY", "a-real-key"},
                                    {"TELNYX_MESSAGING_PROFILE_ID", "sim-messaging-profile"}});
  ASSERT_TRUE(outcome.exit_status) << "still running: " << outcome.output;
  EXPECT_NE(*outcome.exit_status, 0);
  EXPECT_NE(outcome.output.find("TELNYX_MESSAGING_PROFILE_ID"), std::string::npos)
      << outcome.output;
}

TEST(ProductionSettings, AWorkerRefusesTheSimulatorsAddressForTheCarrier) {
  auto outcome =
      startInProduction(SMSGW_SENDER_PATH, {{"CARRIER_API_KEY", "a-real-key"},
                                            {"CARRIER_BASE_URL", "http://127.0.0.1:8090"},
                                            {"VERIFICATION_CODE_SECRET", "real"}});
  ASSERT_TRUE(outcome.exit_status) << "still running: " << outcome.output;
  EXPECT_NE(*outcome.exit_status, 0);
  EXPECT_NE(outcome.output.find("CARRIER_BASE_URL"), std::string::npos) << outcome.output;
}

TEST(ProductionSettings, TheSenderGivesTelnyxOnlyAnHttpsWebhookUrl) {
  auto outcome = startInProduction(
      SMSGW_SENDER_PATH, {{"CARRIER_API_KEY", "a-real-key"},
                          {"CARRIER_BASE_URL", "https://api.telnyx.com"},
                          {"VERIFICATION_CODE_SECRET", "real"},
                          {"CARRIER_WEBHOOK_URL", "http://sms.example.ca/carrier/webhooks"}});
  ASSERT_TRUE(outcome.exit_status) << "still running: " << outcome.output;
  EXPECT_NE(*outcome.exit_status, 0);
  EXPECT_NE(outcome.output.find("CARRIER_WEBHOOK_URL must be an https:// URL"), std::string::npos)
      << outcome.output;
}

TEST(ProductionSettings, TheApiNeedsItsOAuthSecretAndAnHttpsPublicAddress) {
  std::map<std::string, std::string> good = {{"CARRIER_API_KEY", "a-real-key"},
                                             {"TELNYX_PUBLIC_KEY", kRealLookingKey},
                                             {"VERIFICATION_CODE_SECRET", "real"},
                                             {"API_PORT", "0"}};
  auto with = [&](const char* name, const char* value) {
    auto env = good;
    env[name] = value;
    return startInProduction(SMSGW_API_PATH, env);
  };
  for (const auto& [name, value] :
       {std::pair{"OAUTH_FORM_SECRET", ""},
        std::pair{"OAUTH_FORM_SECRET", "local-oauth-form-secret"}, std::pair{"PUBLIC_BASE_URL", ""},
        std::pair{"PUBLIC_BASE_URL", "http://api.example.ca"}}) {
    Outcome outcome = with(name, value);
    ASSERT_TRUE(outcome.exit_status) << name << "=" << value << " still running";
    EXPECT_NE(*outcome.exit_status, 0);
    EXPECT_NE(outcome.output.find(name), std::string::npos) << outcome.output;
  }
}
