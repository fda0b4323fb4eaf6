#pragma once
// What signing in no longer needs, deleted by the receipt worker's periodic retention pass: links
// (owner_links.h) a week past their expiry, emails (owner_mail.h) a week after they were sent
// (their bodies went at sending), and proven browsers (trusted_browsers.h) a week after their
// trust ended. Sessions stay: they are the owner's record of who signed in.

#include "db/database.h"
#include "domain/clock.h"

namespace smsgw::accounts {

inline constexpr std::chrono::hours kSignInLeftoverLife{24 * 7};

// Returns how many rows went. Safe to run from any number of processes.
int pruneSignInLeftovers(db::Database& db, TimePoint now);

}  // namespace smsgw::accounts
