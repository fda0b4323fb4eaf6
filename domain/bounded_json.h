#pragma once
// JSON from outside (a request body, a document a stranger's server sent) parsed with a depth
// limit: anything that walks a value recursively (printing it, copying it, comparing it) would
// otherwise exhaust its stack on a few kilobytes of brackets. Pure; safe on any thread.

#include <nlohmann/json.hpp>
#include <string_view>

namespace smsgw {

inline constexpr int kMaxJsonDepth = 64;

struct BoundedJson {
  enum class Outcome { Parsed, NotJson, TooDeep };
  Outcome outcome = Outcome::NotJson;
  nlohmann::json value;  // set when Parsed
};

BoundedJson parseBoundedJson(std::string_view raw, int max_depth = kMaxJsonDepth);

}  // namespace smsgw
