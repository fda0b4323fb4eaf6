#include "domain/fence.h"

namespace smsgw {

std::optional<ErrorCode> fenceRefusal(const Caller& caller, const FencePlacement& placement) {
  if (caller.deny_list_id && placement.on_deny_list) return ErrorCode::DENY_LIST_BLOCKED;
  if (caller.allow_list_required && !(caller.allow_list_id && placement.on_allow_list))
    return ErrorCode::ALLOW_LIST_BLOCKED;
  return std::nullopt;
}

}  // namespace smsgw
