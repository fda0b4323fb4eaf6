#include "api/routes/address_book_fields.h"

#include "api/routes/validate.h"
#include "domain/errors.h"

namespace smsgw::api {

void requireOnlyFields(const nlohmann::json& body, std::initializer_list<std::string_view> known) {
  for (const auto& [field, _] : body.items()) {
    if (std::find(known.begin(), known.end(), field) == known.end())
      throw validationError(field, "is not a field of this request");
  }
}

contacts::FieldChange fieldChange(const nlohmann::json& body, const char* field,
                                  size_t max_length) {
  if (!body.contains(field)) return std::nullopt;
  if (body[field].is_null()) return std::optional<std::string>();
  return std::optional<std::string>(requireString(body, field, max_length));
}

contacts::NamedFields namedFields(const nlohmann::json& body, bool creating) {
  requireOnlyFields(body, {"name", "description"});
  contacts::NamedFields fields;
  if (creating || body.contains("name")) {
    fields.name = requireString(body, "name", kMaxNameLength);
    requireReadableName(*fields.name, "name");
  }
  fields.description = fieldChange(body, "description", kMaxDescriptionLength);
  return fields;
}

OffsetPage offsetPage(const ApiRequest& req) {
  OffsetPage page{queryNumberText(req, "search"), queryInteger(req, "limit", 20, 1, 100),
                  queryInteger(req, "offset", 0, 0, 1'000'000)};
  if (page.search.size() > kMaxNameLength) throw validationError("search", "is too long");
  return page;
}

}  // namespace smsgw::api
