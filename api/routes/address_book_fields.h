#pragma once
// Request parts the address-book routes (contacts, groups, lists) read alike: the fields a body
// may hold, a field a PATCH may clear, a name, and the {search, limit, offset} of their lists.

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>

#include "api/http/api_types.h"
#include "services/contacts/address_book.h"

namespace smsgw::api {

constexpr size_t kMaxNameLength = 200;
constexpr size_t kMaxDescriptionLength = 2000;

// 422 VALIDATION_ERROR naming the first field of `body` not in `known`.
void requireOnlyFields(const nlohmann::json& body, std::initializer_list<std::string_view> known);
// Absent, null (clear it) or its value, a string of at most `max_length` characters.
contacts::FieldChange fieldChange(const nlohmann::json& body, const char* field, size_t max_length);

// A group's or list's `name` (required when `creating`) and `description`.
contacts::NamedFields namedFields(const nlohmann::json& body, bool creating);

struct OffsetPage {
  std::string search;  // empty: everything
  int limit;
  int offset;
};
// `search`, `limit` (1–100, default 20) and `offset`, or 422 naming the one out of range.
OffsetPage offsetPage(const ApiRequest& req);

}  // namespace smsgw::api
