#include "api/http/request_text.h"

#include <utf8.h>

#include <algorithm>
#include <optional>

#include "domain/bounded_json.h"
#include "domain/errors.h"

namespace smsgw::api {
namespace {

// The body's own name in a field path; a function's static, built on first use rather than at
// load time (where a throw could not be caught).
const std::string& wholeBody() {
  static const std::string name = "body";
  return name;
}

// The first string or key holding NUL, as a field path such as "rows[3].name" ("body" for the
// body itself). The parser has capped the depth, so recursion here is bounded.
std::optional<std::string> fieldWithNul(const nlohmann::json& value, const std::string& path) {
  const std::string& here = path.empty() ? wholeBody() : path;
  if (value.is_string()) {
    if (value.get_ref<const std::string&>().find('\0') == std::string::npos) return std::nullopt;
    return here;
  }
  if (value.is_array()) {
    for (size_t i = 0; i < value.size(); ++i) {
      if (auto found = fieldWithNul(value[i], here + "[" + std::to_string(i) + "]")) return found;
    }
  } else if (value.is_object()) {
    for (const auto& [key, item] : value.items()) {
      // A key with NUL is named by its container: printing it would cut it short anyway.
      if (key.find('\0') != std::string::npos) return here;
      std::string child = path.empty() ? key : std::string(path).append(".").append(key);
      if (auto found = fieldWithNul(item, child)) return found;
    }
  }
  return std::nullopt;
}

}  // namespace

nlohmann::json parseJsonBody(std::string_view raw) {
  // JSON is UTF-8 (RFC 8259 8.1); text that is not would reach no route and no database.
  if (!isValidUtf8(raw)) throw validationError("body", "must be UTF-8 text");
  BoundedJson parsed = parseBoundedJson(raw, kMaxJsonDepth);
  if (parsed.outcome == BoundedJson::Outcome::TooDeep)
    throw ApiError(ErrorCode::FST_ERR_CTP_INVALID_JSON_BODY,
                   {{"reason", "too_deep"}, {"max_depth", kMaxJsonDepth}});
  if (parsed.outcome == BoundedJson::Outcome::NotJson)
    throw ApiError(ErrorCode::FST_ERR_CTP_INVALID_JSON_BODY);
  nlohmann::json body = std::move(parsed.value);
  if (auto field = fieldWithNul(body, ""))
    throw validationError(*field, "must not contain the NUL character");
  return body;
}

bool isCleanText(std::string_view text) {
  bool controls = std::any_of(text.begin(), text.end(), [](char c) {
    auto byte = static_cast<unsigned char>(c);
    return (byte < 0x20 && byte != '\t') || byte == 0x7F;
  });
  return !controls && isValidUtf8(text);
}

size_t utf8Length(std::string_view text) {
  return static_cast<size_t>(utf8::unchecked::distance(text.begin(), text.end()));
}

bool isUsableRequestId(std::string_view value) {
  return !value.empty() && value.size() <= 200 &&
         std::all_of(value.begin(), value.end(), [](char c) { return c > 0x20 && c < 0x7F; });
}

}  // namespace smsgw::api
