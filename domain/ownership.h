#pragma once
// The 404-versus-403 rule for a resource named by id: none is 404 NOT_FOUND, another account's
// is 403 FORBIDDEN (details.reason belongs_to_another_account), so ids are not probed for.

#include <optional>
#include <string>

#include "domain/errors.h"

namespace smsgw {

// `owner`: the account holding the resource, none when there is no such resource.
inline void requireOwnedBy(const std::optional<std::string>& owner, const std::string& account_id) {
  if (!owner) throw ApiError(ErrorCode::NOT_FOUND);
  if (*owner != account_id)
    throw ApiError(ErrorCode::FORBIDDEN, {{"reason", "belongs_to_another_account"}});
}

}  // namespace smsgw
