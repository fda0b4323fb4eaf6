#pragma once
// Every event name a webhook can subscribe to (spec "Events").

#include <span>
#include <string_view>

namespace smsgw {

std::span<const std::string_view> knownEventTypes();
bool isKnownEventType(std::string_view type);

}  // namespace smsgw
