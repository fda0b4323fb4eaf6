#pragma once
// How far the outbox relay may publish (migration 0030). A transaction stamps its outbox rows as
// it commits, so for a moment a stamp is taken and not yet visible: the relay must not pass it.
// Each read of outbox_commit_horizon() gives a candidate (the last stamp handed out, the newest
// transaction then running) and the oldest transaction running afterwards. A candidate is safe
// once the oldest running transaction is past its newest one: every transaction that had taken
// a stamp up to it has then committed or rolled back. The bound is the newest safe candidate;
// the others wait, oldest first, for a later read. Not thread-safe: the leading relay's own.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>

namespace smsgw::topics {

struct CommitHorizon {
  long long stamp = 0;
  std::optional<std::uint64_t> running;  // none: no transaction was running
  std::uint64_t oldest = 0;
};

class CommitBound {
 public:
  // The highest stamp no transaction can still commit at or below, after this read; never
  // goes back. Before any candidate is safe: nullopt.
  std::optional<long long> advance(const CommitHorizon& horizon);

 private:
  struct Candidate {
    long long stamp;
    std::uint64_t running;
  };
  // A long transaction keeps candidates waiting; past this many, new ones wait their turn
  // (the oldest become safe first, and a later read offers the newer again).
  static constexpr std::size_t kMaxWaiting = 256;
  std::deque<Candidate> waiting_;
  std::optional<long long> bound_;
};

}  // namespace smsgw::topics
