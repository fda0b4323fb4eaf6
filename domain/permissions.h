#pragma once
// API key permissions: resource name -> letters r (read), w (write/create), m (modify), d (delete).
// A missing resource denies everything on it. Value type; thread-compatible.

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace smsgw {

std::span<const std::string_view> knownPermissionResources();

class Permissions {
 public:
  // Throws ApiError VALIDATION_ERROR (field `permissions`) on unknown resources or letters.
  static Permissions fromJson(const nlohmann::json& value);
  static Permissions everything();

  bool allows(std::string_view resource, char letter) const;
  // True when every letter granted here is also granted by `other`.
  bool isSubsetOf(const Permissions& other) const;
  nlohmann::json toJson() const;
  bool operator==(const Permissions&) const = default;

 private:
  std::map<std::string, std::string, std::less<>> letters_;
};

// A route's requirement, written "messages:w" or "compliance:md" (any one letter suffices).
struct PermissionRequirement {
  std::string resource;
  std::string any_of_letters;
  static PermissionRequirement parse(std::string_view text);  // asserts well-formed input
  bool satisfiedBy(const Permissions& permissions) const;
};

}  // namespace smsgw
