#include "domain/bounded_json.h"

namespace smsgw {
namespace {

struct TooDeep {};

}  // namespace

BoundedJson parseBoundedJson(std::string_view raw, int max_depth) {
  using Event = nlohmann::json::parse_event_t;
  // The parser calls back before it descends, so the cap holds however deep the text goes.
  auto depthCap = [max_depth](int depth, Event event, nlohmann::json&) {
    if ((event == Event::object_start || event == Event::array_start) && depth >= max_depth)
      throw TooDeep{};
    return true;
  };
  BoundedJson parsed;
  try {
    parsed.value = nlohmann::json::parse(raw, depthCap, /*allow_exceptions=*/false);
  } catch (const TooDeep&) {
    parsed.outcome = BoundedJson::Outcome::TooDeep;
    parsed.value = nullptr;
    return parsed;
  }
  parsed.outcome =
      parsed.value.is_discarded() ? BoundedJson::Outcome::NotJson : BoundedJson::Outcome::Parsed;
  if (parsed.outcome != BoundedJson::Outcome::Parsed) parsed.value = nullptr;
  return parsed;
}

}  // namespace smsgw
