#include "domain/oauth_scope.h"

#include <nlohmann/json.hpp>

#include "domain/errors.h"

namespace smsgw::oauth {

std::optional<Permissions> permissionsOfScope(std::string_view scope) {
  nlohmann::json letters = nlohmann::json::object();
  size_t at = 0;
  while (at < scope.size()) {
    size_t end = scope.find(' ', at);
    if (end == std::string_view::npos) end = scope.size();
    std::string_view word = scope.substr(at, end - at);
    at = end + 1;
    if (word.empty()) continue;
    size_t colon = word.find(':');
    if (colon == std::string_view::npos || colon + 1 == word.size()) return std::nullopt;
    std::string resource(word.substr(0, colon));
    if (letters.contains(resource)) return std::nullopt;
    letters[resource] = std::string(word.substr(colon + 1));
  }
  try {
    return Permissions::fromJson(letters);
  } catch (const ApiError&) {
    return std::nullopt;  // an unknown resource or letter
  }
}

std::string scopeOf(const Permissions& permissions) {
  std::string scope;
  const nlohmann::json letters_of = permissions.toJson();  // items() must not outlive it
  for (const auto& [resource, letters] : letters_of.items()) {
    if (letters.get_ref<const std::string&>().empty()) continue;
    scope += (scope.empty() ? "" : " ") + resource + ":" + letters.get<std::string>();
  }
  return scope;
}

}  // namespace smsgw::oauth
