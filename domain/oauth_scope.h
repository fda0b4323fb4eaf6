#pragma once
// OAuth scopes are API key permissions written as words: "messages:rw compliance:r" is the key
// permission {"messages": "rw", "compliance": "r"} (domain/permissions.h). A connection's scope
// is what its owner approved, and its key carries exactly that.

#include <optional>
#include <string>
#include <string_view>

#include "domain/permissions.h"

namespace smsgw::oauth {

// The permissions a scope names; nothing when a word is not resource:letters of a known
// resource, or names a resource twice.
std::optional<Permissions> permissionsOfScope(std::string_view scope);
std::string scopeOf(const Permissions& permissions);

// What a client that asks for no scope gets offered: what the MCP tools use.
constexpr std::string_view kDefaultScope =
    "messages:rw compliance:rw phone_numbers:r verifications:rw account:r";

}  // namespace smsgw::oauth
