// A name lookup answers within its deadline whatever the resolver does, and a resolver that
// never answers cannot pile up threads.
#include "adapters/host_lookup.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

using namespace smsgw;
using namespace std::chrono_literals;

namespace {

// A resolver that answers only when the test lets it, so "never answers in time" does not
// depend on how fast the machine is.
struct HeldResolver {
  std::shared_ptr<std::promise<void>> release = std::make_shared<std::promise<void>>();
  std::shared_future<void> released = release->get_future().share();
  std::shared_ptr<std::atomic<int>> calls = std::make_shared<std::atomic<int>>(0);

  Resolver resolver() const {
    return [released = released, calls = calls](const std::string&) {
      calls->fetch_add(1);
      released.wait();
      return HostLookup{LookupStatus::Found, {}};
    };
  }
};

// Lookups abandoned by an earlier test finish once released; wait for them so each test
// starts from none.
void awaitNoAbandonedLookups() {
  while (abandonedHostLookups() != 0) std::this_thread::sleep_for(1ms);
}

TEST(HostLookup, ANumericHostAnswersAtOnceWithItsAddress) {
  HostLookup v4 = lookupHost("127.0.0.1", 0ms);
  ASSERT_EQ(v4.status, LookupStatus::Found);
  ASSERT_EQ(v4.addresses.size(), 1u);
  EXPECT_EQ(v4.addresses[0].ss_family, AF_INET);
  HostLookup v6 = lookupHost("::1", 0ms);
  ASSERT_EQ(v6.status, LookupStatus::Found);
  EXPECT_EQ(v6.addresses[0].ss_family, AF_INET6);
}

TEST(HostLookup, AResolverThatAnswersInTimeGivesItsAnswer) {
  Resolver answers = [](const std::string& host) {
    return HostLookup{host == "known.example" ? LookupStatus::Found : LookupStatus::NotFound, {}};
  };
  EXPECT_EQ(lookupWithDeadline(answers, "known.example", 60s).status, LookupStatus::Found);
  EXPECT_EQ(lookupWithDeadline(answers, "other.example", 60s).status, LookupStatus::NotFound);
}

TEST(HostLookup, AResolverThatDoesNotAnswerIsAbandonedAtTheDeadline) {
  HeldResolver held;
  EXPECT_EQ(lookupWithDeadline(held.resolver(), "slow.example", 20ms).status,
            LookupStatus::TimedOut);
  held.release->set_value();
}

TEST(HostLookup, PastTheAbandonedLimitANewLookupIsRefusedWithoutStarting) {
  awaitNoAbandonedLookups();
  HeldResolver held;
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(lookupWithDeadline(held.resolver(), "slow.example", 5ms, 3).status,
              LookupStatus::TimedOut);
  }
  while (held.calls->load() < 3) std::this_thread::sleep_for(1ms);  // all three started
  EXPECT_EQ(lookupWithDeadline(held.resolver(), "slow.example", 5ms, 3).status,
            LookupStatus::TimedOut);
  EXPECT_EQ(held.calls->load(), 3);
  EXPECT_EQ(abandonedHostLookups(), 3);
  held.release->set_value();
  // Once they finish, lookups start again.
  awaitNoAbandonedLookups();
  Resolver answers = [](const std::string&) { return HostLookup{LookupStatus::Found, {}}; };
  EXPECT_EQ(lookupWithDeadline(answers, "known.example", 60s, 3).status, LookupStatus::Found);
}

}  // namespace
