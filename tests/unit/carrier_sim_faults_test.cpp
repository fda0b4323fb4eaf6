// The simulator's send faults: which sends meet them, and which sends a throttle's window
// shuts. Tests share one simulator, so a fault scoped to a number must leave others alone,
// while an unscoped throttle shuts the whole account as Telnyx's rate limit does.
#include <gtest/gtest.h>

#include "ops/carrier_sim/sim_state.h"

using smsgw::sim::SimState;

namespace {

const std::string kOurs = "+16135550101";
const std::string kTheirs = "+16135550102";
const std::string kHandset = "+16135550199";

}  // namespace

TEST(CarrierSimFaults, AFaultScopedToANumberIsUsedUpOnlyByItsSends) {
  SimState state;
  ASSERT_FALSE(state.addFault({{"kind", "send"}, {"mode", "error"}, {"from", kOurs}}));
  EXPECT_FALSE(state.takeSendFault(kTheirs, kHandset)) << "another test's send passes";
  auto met = state.takeSendFault(kOurs, kHandset);
  ASSERT_TRUE(met);
  EXPECT_EQ(met->mode, "error");
  EXPECT_FALSE(state.takeSendFault(kOurs, kHandset)) << "a count of one is used up";
}

TEST(CarrierSimFaults, AFaultScopedToARecipientMeetsSendsFromAnyNumber) {
  SimState state;
  ASSERT_FALSE(state.addFault({{"kind", "send"}, {"mode", "refuse"}, {"to", kHandset}}));
  EXPECT_FALSE(state.takeSendFault(kOurs, "+16135550198"));
  auto met = state.takeSendFault(kTheirs, kHandset);
  ASSERT_TRUE(met);
  EXPECT_EQ(met->code, "40008") << "a refusal's default code: Telnyx's Undeliverable";
}

TEST(CarrierSimFaults, AnUnscopedThrottleShutsTheWholeAccount) {
  SimState state;
  ASSERT_FALSE(state.addFault({{"kind", "send"}, {"mode", "throttle"}, {"reset", 30}}));
  auto throttle = state.takeSendFault(kOurs, kHandset);
  ASSERT_TRUE(throttle);
  state.shutRateWindow(*throttle);
  EXPECT_EQ(state.windowShutFor(kOurs, kHandset), 30);
  EXPECT_EQ(state.windowShutFor(kTheirs, "+16135550198"), 30) << "Telnyx's limit is the key's";
  state.clearFaults();
  EXPECT_EQ(state.windowShutFor(kTheirs, "+16135550198"), 0);
}

TEST(CarrierSimFaults, AScopedWindowShutsOnlyForTheSendsItsFaultMeets) {
  SimState state;
  ASSERT_FALSE(state.addFault({{"kind", "send"},
                               {"mode", "throttle"},
                               {"reset", 30},
                               {"from", kOurs},
                               {"window", "scoped"}}));
  state.shutRateWindow(*state.takeSendFault(kOurs, kHandset));
  EXPECT_EQ(state.windowShutFor(kOurs, "+16135550198"), 30);
  EXPECT_EQ(state.windowShutFor(kTheirs, kHandset), 0);
}

TEST(CarrierSimFaults, MalformedScopesAreRefused) {
  SimState state;
  EXPECT_TRUE(state.addFault({{"kind", "send"}, {"mode", "error"}, {"from", 5}}));
  EXPECT_TRUE(state.addFault({{"kind", "send"}, {"mode", "error"}, {"to", ""}}));
  EXPECT_TRUE(state.addFault({{"kind", "send"}, {"mode", "throttle"}, {"window", "scoped"}}))
      << "a scoped window needs from or to";
  EXPECT_TRUE(state.addFault(
      {{"kind", "send"}, {"mode", "throttle"}, {"from", kOurs}, {"window", "room"}}));
  EXPECT_FALSE(state.takeSendFault(kOurs, kHandset)) << "nothing refused was stored";
}
