#pragma once
// Who may change what an allow/deny list reaches (spec Authentication 5 and 7): a fenced key
// may not change its own lists or the groups and contacts they include (KEY_FENCED), and a TEST
// key may not change anything a LIVE key's list references (LIVE_KEY_REQUIRED). Runs in the
// caller's transaction, before the change.

#include <soci/session.h>

#include <string>

#include "domain/caller.h"

namespace smsgw::contacts {

enum class Referenced { Contact, Group, List };

void requireMayChange(soci::session& sql, const Caller& caller, Referenced kind,
                      const std::string& id);

}  // namespace smsgw::contacts
