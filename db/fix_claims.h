#pragma once
// The reconciler's claims (reconciler_fixes, migration 0016): a pass may fix a stuck thing only
// when nobody fixed it within its wait, so reconcilers in any number of senders share the work
// and a thing is fixed again only after its wait.

#include <soci/session.h>

#include <chrono>
#include <string>

#include "domain/clock.h"

namespace smsgw::db {

// The stuck things one reconciler pass looks at: stuck since before `before` and after `after`,
// at most `batch`, each fixed again only `wait` after its last fix.
struct FixWindow {
  TimePoint before, after;
  std::chrono::seconds wait{0};
  int batch = 200;
  TimePoint now;
};

// True when this pass may fix the thing `ref` of `kind`, claimed now.
bool claimFix(soci::session& sql, const std::string& kind, const std::string& ref, TimePoint now,
              std::chrono::seconds wait);

}  // namespace smsgw::db
