#pragma once
// Process logging: one spdlog logger to stderr, each line prefixed with the process name.

#include <string_view>

namespace smsgw {

void initLogging(std::string_view process_name);

}  // namespace smsgw
