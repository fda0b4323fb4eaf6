#include "domain/bounded_json.h"

#include <algorithm>

namespace smsgw {
namespace {

struct TooDeep {};

// The deepest nesting of brackets outside strings, or max_depth + 1 once it is passed. A text
// that is not JSON may be miscounted here; the parser then judges it.
int deepestNesting(std::string_view raw, int max_depth) {
  int depth = 0, deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // whatever is escaped, a quote included, stays in the string
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > max_depth) return deepest;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

}  // namespace

BoundedJson parseBoundedJson(std::string_view raw, int max_depth) {
  BoundedJson parsed;
  // nlohmann's parser with a callback takes time that grows with the square of a document's
  // width (a 10,000-row consent batch took 7 s under ASan), so it runs only for a text that
  // may pass the cap, and decides there exactly where parsing stops.
  if (deepestNesting(raw, max_depth) <= max_depth) {
    parsed.value = nlohmann::json::parse(raw, nullptr, /*allow_exceptions=*/false);
  } else {
    using Event = nlohmann::json::parse_event_t;
    // The parser calls back before it descends, so the cap holds however deep the text goes.
    auto depthCap = [max_depth](int depth, Event event, nlohmann::json&) {
      if ((event == Event::object_start || event == Event::array_start) && depth >= max_depth)
        throw TooDeep{};
      return true;
    };
    try {
      parsed.value = nlohmann::json::parse(raw, depthCap, /*allow_exceptions=*/false);
    } catch (const TooDeep&) {
      parsed.outcome = BoundedJson::Outcome::TooDeep;
      parsed.value = nullptr;
      return parsed;
    }
  }
  parsed.outcome =
      parsed.value.is_discarded() ? BoundedJson::Outcome::NotJson : BoundedJson::Outcome::Parsed;
  if (parsed.outcome != BoundedJson::Outcome::Parsed) parsed.value = nullptr;
  return parsed;
}

}  // namespace smsgw
