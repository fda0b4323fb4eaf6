#include "domain/permissions.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <nlohmann/json.hpp>

#include "domain/errors.h"

namespace smsgw {
namespace {

constexpr std::array<std::string_view, 11> kResources = {
    "account",  "api_keys",      "compliance",    "contact_groups", "contact_lists", "contacts",
    "messages", "phone_numbers", "verifications", "webhooks",       "email"};
constexpr std::string_view kLetters = "rwmd";

std::string normalizedLetters(std::string_view letters) {
  std::string out;
  for (char c : kLetters) {
    if (letters.find(c) != std::string_view::npos) out.push_back(c);
  }
  return out;
}

}  // namespace

std::span<const std::string_view> knownPermissionResources() {
  return kResources;
}

Permissions Permissions::fromJson(const nlohmann::json& value) {
  if (!value.is_object())
    throw validationError("permissions", "must be an object of resource to letters");
  Permissions out;
  for (const auto& [resource, letters] : value.items()) {
    if (std::find(kResources.begin(), kResources.end(), resource) == kResources.end()) {
      throw validationError("permissions." + resource, "unknown resource");
    }
    if (!letters.is_string())
      throw validationError("permissions." + resource, "must be a string of letters r, w, m, d");
    const auto& text = letters.get_ref<const std::string&>();
    if (text.find_first_not_of(kLetters) != std::string::npos) {
      throw validationError("permissions." + resource, "letters must be among r, w, m, d");
    }
    std::string normalized = normalizedLetters(text);
    if (!normalized.empty()) out.letters_[resource] = normalized;
  }
  return out;
}

Permissions Permissions::everything() {
  Permissions out;
  for (auto resource : kResources) out.letters_[std::string(resource)] = std::string(kLetters);
  return out;
}

bool Permissions::allows(std::string_view resource, char letter) const {
  auto it = letters_.find(resource);
  return it != letters_.end() && it->second.find(letter) != std::string::npos;
}

bool Permissions::isSubsetOf(const Permissions& other) const {
  for (const auto& [resource, letters] : letters_) {
    for (char c : letters) {
      if (!other.allows(resource, c)) return false;
    }
  }
  return true;
}

nlohmann::json Permissions::toJson() const {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [resource, letters] : letters_) out[resource] = letters;
  return out;
}

PermissionRequirement PermissionRequirement::parse(std::string_view text) {
  size_t colon = text.find(':');
  assert(colon != std::string_view::npos && colon + 1 < text.size());
  return {std::string(text.substr(0, colon)), std::string(text.substr(colon + 1))};
}

bool PermissionRequirement::satisfiedBy(const Permissions& permissions) const {
  return std::any_of(any_of_letters.begin(), any_of_letters.end(),
                     [&](char c) { return permissions.allows(resource, c); });
}

}  // namespace smsgw
