#pragma once
// A key's fence (spec Authentication 5): whether it may message a recipient, decided from where
// the recipient stands on the key's allow and deny lists. The DENY list wins over the ALLOW
// list; a default-deny key without an ALLOW list may message nobody. Pure.

#include <optional>

#include "domain/caller.h"
#include "domain/errors.h"

namespace smsgw {

// Where a recipient stands on the caller's lists (the database's answer; false where the key
// has no such list).
struct FencePlacement {
  bool on_allow_list = false;
  bool on_deny_list = false;
};

// DENY_LIST_BLOCKED or ALLOW_LIST_BLOCKED, or nothing when the key may message the recipient.
std::optional<ErrorCode> fenceRefusal(const Caller& caller, const FencePlacement& placement);

}  // namespace smsgw
