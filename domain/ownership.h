#pragma once
// The 404-versus-403 rule for a resource named by id on a route the spec names: none is 404
// NOT_FOUND, another account's is 403 FORBIDDEN (details.reason belongs_to_another_account), as
// the spec's Authentication rule 9 asks. Routes that are ours alone answer 404 for both
// (docs/decisions.md, "Another account's ids").

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
