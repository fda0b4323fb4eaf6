#pragma once
// Name lookups with a deadline. getaddrinfo has none of its own: a resolver that drops
// queries holds the caller for the resolver's timeouts times its retries times its search
// domains (40 s and more on a machine whose DNS server is away), and the callers are an API
// request, a webhook delivery and an OAuth metadata fetch, all of which promise an answer
// sooner. A lookup past its deadline is abandoned to finish on its own thread.

#include <sys/socket.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace smsgw {

enum class LookupStatus { Found, NotFound, TimedOut };

struct HostLookup {
  LookupStatus status = LookupStatus::NotFound;
  std::vector<sockaddr_storage> addresses;  // in the resolver's order, when found
};

constexpr std::chrono::milliseconds kHostLookupDeadline{3000};

// A numeric host answers at once; a name is looked up (A and AAAA) within `deadline`.
HostLookup lookupHost(const std::string& host,
                      std::chrono::milliseconds deadline = kHostLookupDeadline);

// The deadline around any resolver, for tests that need one which never answers. At most
// `max_abandoned` lookups may still be running after their deadline; past that a new lookup
// is refused (TimedOut) without starting, so a broken resolver cannot pile up threads.
using Resolver = std::function<HostLookup(const std::string& host)>;
HostLookup lookupWithDeadline(const Resolver& resolver, const std::string& host,
                              std::chrono::milliseconds deadline, int max_abandoned = 32);

// Lookups past their deadline whose thread still runs.
int abandonedHostLookups();

}  // namespace smsgw
