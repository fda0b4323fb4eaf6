// The webhook rules that are arithmetic or classification: the retry schedule, the failure
// streak and the disable rule, and which addresses a delivery may reach.
#include <gtest/gtest.h>

#include <set>

#include "adapters/webhook_target.h"
#include "domain/webhook_retry_policy.h"

using namespace smsgw;
using namespace smsgw::webhook_policy;
using namespace std::chrono_literals;

namespace {

const TimePoint t0 = std::chrono::system_clock::from_time_t(1'800'000'000);

TEST(RetrySchedule, WaitsAboutOneSecondThenOneMinuteUpToSixteenHoursWithJitter) {
  std::mt19937_64 random(7);
  const std::chrono::milliseconds expected[] = {1s, 1min, 5min, 30min, 2h, 6h, 16h};
  for (int step = 0; step < kRetrySteps; ++step) {
    for (int draw = 0; draw < 200; ++draw) {
      auto wait = *retryDueAt(step, t0, random) - t0;
      EXPECT_GE(wait, expected[step] * 95 / 100);
      EXPECT_LE(wait, expected[step] * 105 / 100);
    }
  }
  EXPECT_FALSE(retryDueAt(kRetrySteps, t0, random)) << "the eighth attempt is the last";
  EXPECT_EQ(kMaxAttempts, kRetrySteps + 1);
}

TEST(RetrySchedule, JitterSpreadsRetriesAndNeverReachesTheStreakReset) {
  std::mt19937_64 random(11);
  std::set<TimePoint> seen;
  for (int i = 0; i < 50; ++i) seen.insert(*retryDueAt(2, t0, random));
  EXPECT_GT(seen.size(), 40u);
  for (int i = 0; i < 1000; ++i) EXPECT_LT(*retryDueAt(6, t0, random) - t0, kStreakReset);
}

TEST(RetrySchedule, TheOneSecondRetryIsSkippedForAnEndpointAlreadyFailing) {
  EXPECT_EQ(firstRetryStep(false), 0);
  EXPECT_EQ(firstRetryStep(true), 1);
}

TEST(FailureStreak, CountsDistinctEventsAndStartsAgainAfter17QuietHours) {
  Streak streak = afterFailure({}, t0, false);
  EXPECT_EQ(streak.failing_since, t0);
  EXPECT_EQ(streak.failed_events, 1);
  streak = afterFailure(streak, t0 + 1min, true);  // a retry of the same event
  EXPECT_EQ(streak.failed_events, 1);
  streak = afterFailure(streak, t0 + 2min, false);
  EXPECT_EQ(streak.failed_events, 2);
  EXPECT_TRUE(continuesStreak(streak, t0 + 2min + 17h));
  Streak fresh = afterFailure(streak, t0 + 2min + 17h + 1s, false);
  EXPECT_EQ(fresh.failing_since, t0 + 2min + 17h + 1s);
  EXPECT_EQ(fresh.failed_events, 1);
}

TEST(FailureStreak, DisablesOnlyAfter24HoursAndFiveEvents) {
  Streak streak{t0, t0, 5};
  EXPECT_FALSE(shouldDisable(streak, t0 + 24h - 1s));
  EXPECT_TRUE(shouldDisable(streak, t0 + 24h));
  streak.failed_events = 4;
  EXPECT_FALSE(shouldDisable(streak, t0 + 48h));
  EXPECT_FALSE(shouldDisable({}, t0 + 48h)) << "no streak, nothing to disable";
}

TEST(WebhookTargets, InternalAddressesAreRefused) {
  for (const char* address : {"127.0.0.1",
                              "127.8.9.10",
                              "10.1.2.3",
                              "172.16.0.1",
                              "172.31.255.255",
                              "192.168.1.1",
                              "169.254.169.254",
                              "100.64.0.1",
                              "100.100.100.200",
                              "0.0.0.0",
                              "224.0.0.1",
                              "255.255.255.255",
                              "::1",
                              "::",
                              "fe80::1",
                              "fc00::1",
                              "fd00:ec2::254",
                              "ff02::1",
                              "::ffff:127.0.0.1",
                              "::ffff:10.0.0.1",
                              "::ffff:169.254.169.254",
                              "64:ff9b::a00:1",
                              "::7f00:1",             // IPv4-compatible 127.0.0.1
                              "::808:808",            // IPv4-compatible, refused whatever it holds
                              "64:ff9b:1::a00:1",     // local-use NAT64
                              "::ffff:0:7f00:1",      // SIIT-translated 127.0.0.1
                              "2002:7f00:1::1",       // 6to4 of 127.0.0.1
                              "2002:a9fe:a9fe::1",    // 6to4 of the metadata address
                              "2001:0:4136:e378::1",  // Teredo
                              "2001:db8::1",          // documentation
                              "100::1"}) {            // discard

    EXPECT_TRUE(isInternalAddress(address, false)) << address;
  }
  for (const char* address : {"8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700::1111",
                              "::ffff:8.8.8.8", "2002:808:808::1", "64:ff9b::808:808"}) {
    EXPECT_FALSE(isInternalAddress(address, false)) << address;
  }
}

TEST(WebhookTargets, TheLocalSettingAllowsLoopbackAndNothingElse) {
  for (const char* address : {"127.0.0.1", "::1", "::ffff:127.0.0.1"})
    EXPECT_FALSE(isInternalAddress(address, true)) << address;
  for (const char* address : {"10.0.0.1", "169.254.169.254", "::ffff:192.168.0.1", "fe80::1"})
    EXPECT_TRUE(isInternalAddress(address, true)) << address;
}

TEST(WebhookTargets, ProductionRegistrationWantsHttps) {
  EXPECT_EQ(checkWebhookRegistration("http://127.0.0.1:9/h", false), TargetVerdict::NotHttps);
  EXPECT_EQ(checkWebhookRegistration("https://127.0.0.1:9/h", false),
            TargetVerdict::PrivateAddress);
  EXPECT_EQ(checkWebhookRegistration("https://localhost/h", false), TargetVerdict::PrivateAddress);
  EXPECT_EQ(checkWebhookRegistration("http://127.0.0.1:9/h", true), TargetVerdict::Allowed);
  EXPECT_EQ(checkWebhookRegistration("ftp://example.com/h", true), TargetVerdict::InvalidUrl);
}

TEST(WebhookTargets, CredentialsAndInternationalizedHostsAreRefused) {
  EXPECT_FALSE(parseWebhookUrl("https://user:secret@example.com/x"));
  EXPECT_FALSE(parseWebhookUrl("https://user@example.com/x"));
  EXPECT_FALSE(
      parseWebhookUrl("https://b\xc3\xbc"
                      "cher.example/x"));                           // bücher.example
  EXPECT_TRUE(parseWebhookUrl("https://xn--bcher-kva.example/x"));  // its punycode form
  EXPECT_EQ(checkWebhookRegistration("https://user:pw@example.com/x", true),
            TargetVerdict::InvalidUrl);
}

TEST(WebhookTargets, UrlsGiveTheirPort) {
  EXPECT_EQ(parseWebhookUrl("https://example.com/x")->port, 443);
  EXPECT_EQ(parseWebhookUrl("http://example.com/x")->port, 80);
  EXPECT_EQ(parseWebhookUrl("http://[::1]:8080/x")->host, "::1");
  EXPECT_EQ(parseWebhookUrl("http://[::1]:8080/x")->port, 8080);
}

}  // namespace
