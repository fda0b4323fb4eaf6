#include "adapters/log.h"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

namespace smsgw {

void initLogging(std::string_view process_name) {
  auto logger = spdlog::stderr_logger_mt(std::string(process_name));
  logger->set_pattern("%Y-%m-%dT%H:%M:%S.%eZ %^%l%$ [%n] %v", spdlog::pattern_time_type::utc);
  logger->flush_on(spdlog::level::info);
  spdlog::set_default_logger(logger);
}

}  // namespace smsgw
