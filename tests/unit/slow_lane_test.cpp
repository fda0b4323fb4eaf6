// The slow lane's admission and scheduling: a tenant never holds more than its share of the
// threads, its extra jobs wait while other tenants' run, and beyond its waiting room it is
// refused at once.
#include "api/http/slow_lane.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>

using namespace smsgw::api;
using namespace std::chrono_literals;
using Admission = SlowLane::Admission;

namespace {

// Jobs that report when they start and then wait until the test opens the gate.
class Gate {
 public:
  std::function<void()> job(const std::string& name) {
    return [this, name] {
      std::unique_lock lock(mutex_);
      started_.push_back(name);
      changed_.notify_all();
      changed_.wait(lock, [this] { return open_; });
    };
  }
  // Waits (at most 10 s) until `count` jobs have started; returns who started so far.
  std::vector<std::string> waitStarted(size_t count) {
    std::unique_lock lock(mutex_);
    changed_.wait_for(lock, 10s, [&] { return started_.size() >= count; });
    return started_;
  }
  void open() {
    std::lock_guard lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> started_;
  bool open_ = false;
};

}  // namespace

TEST(SlowLane, ATenantRunsItsShareAndOthersRunBesideIt) {
  Gate gate;
  SlowLane lane({/*threads=*/4, /*running_per_tenant=*/2, /*waiting_per_tenant=*/8, 100});
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(lane.submit("busy", gate.job("busy" + std::to_string(i))), Admission::Accepted);
  auto started = gate.waitStarted(2);
  EXPECT_EQ(started.size(), 2u);
  EXPECT_EQ(lane.submit("quiet", gate.job("quiet")), Admission::Accepted);
  started = gate.waitStarted(3);
  ASSERT_EQ(started.size(), 3u);
  EXPECT_EQ(started[2], "quiet") << "the other tenant's job ran before busy's third";
  gate.open();
  lane.stop();
  EXPECT_EQ(gate.waitStarted(6).size(), 6u) << "stop() ran everything queued";
}

TEST(SlowLane, BeyondItsWaitingRoomATenantIsRefusedAtOnce) {
  Gate gate;
  SlowLane lane({2, 1, 2, 100});
  EXPECT_EQ(lane.submit("t", gate.job("running")), Admission::Accepted);
  gate.waitStarted(1);
  EXPECT_EQ(lane.submit("t", gate.job("waiting 1")), Admission::Accepted);
  EXPECT_EQ(lane.submit("t", gate.job("waiting 2")), Admission::Accepted);
  EXPECT_EQ(lane.submit("t", gate.job("one too many")), Admission::TenantBusy);
  EXPECT_EQ(lane.submit("other", gate.job("other")), Admission::Accepted);
  gate.open();
}

TEST(SlowLane, AFullLaneRefusesEveryoneAndAStoppedOneTakesNothing) {
  Gate gate;
  SlowLane lane({1, 1, 10, 2});
  EXPECT_EQ(lane.submit("a", gate.job("a")), Admission::Accepted);
  gate.waitStarted(1);
  EXPECT_EQ(lane.submit("b", gate.job("b")), Admission::Accepted);
  EXPECT_EQ(lane.submit("c", gate.job("c")), Admission::Accepted);
  EXPECT_EQ(lane.submit("d", gate.job("d")), Admission::Full);
  gate.open();
  lane.stop();
  EXPECT_EQ(lane.submit("e", gate.job("e")), Admission::Full);
}

TEST(SlowLane, JobsSubmittedFasterThanThreadsWakeAreNotTakenForWaitingOnes) {
  Gate gate;
  SlowLane lane({4, 4, 0, 100});  // no waiting room: only what may run at once is taken
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(lane.submit("t", gate.job(std::to_string(i))), Admission::Accepted) << i;
  EXPECT_EQ(lane.submit("t", gate.job("fifth")), Admission::TenantBusy);
  gate.open();
}
