// The carrier's settings as a process reads them from its command line.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "adapters/http_carrier_client.h"
#include "adapters/process_settings.h"
#include "adapters/settings.h"

using namespace smsgw;

TEST(CarrierSettings, ABaseUrlGivenWithTrailingSlashesMakesNoDoubleSlashInPaths) {
  for (std::string given :
       {"https://api.telnyx.com/", "https://api.telnyx.com//", "https://api.telnyx.com"}) {
    ProcessSettings settings("smsgw-test", "reads the carrier's settings");
    CarrierClientConfig carrier;
    addCarrierSettings(settings, carrier);
    std::vector<std::string> args = {"smsgw-test",
                                     "--carrier-base-url",
                                     given,
                                     "--carrier-api-key",
                                     "KEY0123456789_an_operators_own",
                                     "--telnyx-messaging-profile-id",
                                     "40017a8c-an-operators-profile"};
    std::vector<char*> argv;
    argv.reserve(args.size());
    for (auto& arg : args) argv.push_back(arg.data());
    settings.parse(static_cast<int>(argv.size()), argv.data());
    EXPECT_EQ(carrier.base_url, "https://api.telnyx.com") << given;
  }
}

TEST(CarrierSettings, AWebhookUrlIsGivenAsIsAndNoneLeavesItToTheProfile) {
  for (std::string given : {"https://sms.example.ca/carrier/webhooks", ""}) {
    ProcessSettings settings("smsgw-test", "reads the carrier's settings");
    CarrierClientConfig carrier;
    addCarrierSettings(settings, carrier);
    // An operator's settings, so that the test holds in and out of a local stack.
    std::vector<std::string> args = {"smsgw-test",
                                     "--carrier-base-url",
                                     "https://api.telnyx.com",
                                     "--carrier-api-key",
                                     "KEY0123456789_an_operators_own",
                                     "--telnyx-messaging-profile-id",
                                     "40017a8c-an-operators-profile",
                                     "--carrier-webhook-url",
                                     given};
    std::vector<char*> argv;
    argv.reserve(args.size());
    for (auto& arg : args) argv.push_back(arg.data());
    settings.parse(static_cast<int>(argv.size()), argv.data());
    EXPECT_EQ(carrier.webhook_url, given);
  }
}
