#pragma once
// The registry of running processes (process_heartbeats, migration 0015): each worker and
// each replay beats every few seconds; one that stopped beating for `kHeartbeatLapse` is taken
// for dead (a SIGKILL leaves no word). Times come from the caller's clock.

#include <soci/session.h>

#include <chrono>
#include <string>
#include <vector>

#include "domain/clock.h"

namespace smsgw::db {

inline constexpr std::chrono::seconds kHeartbeatInterval{2};
inline constexpr std::chrono::seconds kHeartbeatLapse{10};

struct ProcessInstance {
  std::string instance_id;  // host/pid/process
  std::string process;
  std::string consumer_group;
  std::string host;
  int pid = 0;
};

// A new instance for this process (host name and pid filled in).
ProcessInstance thisProcess(const std::string& process, const std::string& consumer_group);

// Says the instance is alive at `now` (the first beat registers it).
void beat(soci::session& sql, const ProcessInstance& instance, TimePoint now);
// A clean stop: the instance is no longer a member of anything.
void stopped(soci::session& sql, const ProcessInstance& instance, TimePoint now);
// Instances of `consumer_group` alive at `now`, other than `except` (an instance id).
std::vector<std::string> liveMembers(soci::session& sql, const std::string& consumer_group,
                                     TimePoint now, const std::string& except = "");

}  // namespace smsgw::db
