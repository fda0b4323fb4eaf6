#include "domain/errors.h"

#include <array>

namespace smsgw {
namespace {

constexpr std::array kErrors = {
#define X(code, status, en, fr) ErrorInfo{ErrorCode::code, #code, status, en, fr},
#include "domain/error_table.inc"
#undef X
};

}  // namespace

const ErrorInfo& errorInfo(ErrorCode code) {
  return kErrors.at(static_cast<size_t>(code));
}

std::optional<ErrorCode> errorCodeFromName(std::string_view name) {
  for (const auto& info : kErrors) {
    if (info.name == name) return info.code;
  }
  return std::nullopt;
}

std::span<const ErrorInfo> allErrors() {
  return kErrors;
}

ApiError::ApiError(ErrorCode code, nlohmann::json details, std::optional<int> retry_after_seconds)
    : std::runtime_error(std::string(errorInfo(code).name)),
      code_(code),
      details_(std::move(details)),
      retry_after_(retry_after_seconds) {}

ApiError validationError(std::string_view field, std::string_view message) {
  return ApiError(ErrorCode::VALIDATION_ERROR,
                  nlohmann::json::array({{{"field", field}, {"message", message}}}));
}

}  // namespace smsgw
