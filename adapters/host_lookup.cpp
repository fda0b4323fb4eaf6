#include "adapters/host_lookup.h"

#include <netdb.h>

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

namespace smsgw {
namespace {

HostLookup systemLookup(const std::string& host, int flags) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = flags;
  addrinfo* found = nullptr;
  HostLookup out;
  if (getaddrinfo(host.c_str(), nullptr, &hints, &found) != 0 || !found) return out;
  for (const addrinfo* ai = found; ai; ai = ai->ai_next) {
    sockaddr_storage address{};
    std::memcpy(&address, ai->ai_addr, std::min<size_t>(ai->ai_addrlen, sizeof address));
    out.addresses.push_back(address);
  }
  freeaddrinfo(found);
  out.status = LookupStatus::Found;
  return out;
}

// What the waiting caller and the lookup's thread share; whichever leaves last frees it.
struct PendingLookup {
  std::mutex mutex;
  std::condition_variable done_signal;
  bool done = false;
  HostLookup result;
};

// Lookups whose caller stopped waiting and whose thread still runs.
std::atomic<int> abandoned_lookups{0};

}  // namespace

HostLookup lookupWithDeadline(const Resolver& resolver, const std::string& host,
                              std::chrono::milliseconds deadline, int max_abandoned) {
  if (abandoned_lookups.load() >= max_abandoned) return {LookupStatus::TimedOut, {}};
  auto pending = std::make_shared<PendingLookup>();
  auto abandoned = std::make_shared<std::atomic<bool>>(false);
  std::thread([pending, abandoned, resolver, host] {
    HostLookup result = resolver(host);
    {
      std::lock_guard<std::mutex> lock(pending->mutex);
      pending->result = std::move(result);
      pending->done = true;
    }
    pending->done_signal.notify_one();
    if (abandoned->load()) abandoned_lookups.fetch_sub(1);
  }).detach();
  std::unique_lock<std::mutex> lock(pending->mutex);
  if (pending->done_signal.wait_for(lock, deadline, [&] { return pending->done; })) {
    return std::move(pending->result);
  }
  // Counted under the lock, so the thread (which sets `done` under it) sees the flag when it
  // decides whether to uncount.
  abandoned_lookups.fetch_add(1);
  abandoned->store(true);
  return {LookupStatus::TimedOut, {}};
}

int abandonedHostLookups() {
  return abandoned_lookups.load();
}

HostLookup lookupHost(const std::string& host, std::chrono::milliseconds deadline) {
  HostLookup numeric = systemLookup(host, AI_NUMERICHOST);
  if (numeric.status == LookupStatus::Found) return numeric;
  return lookupWithDeadline([](const std::string& name) { return systemLookup(name, 0); }, host,
                            deadline);
}

}  // namespace smsgw
