#pragma once
// Domain errors: one enum, one table (error_table.inc), one exception type.
// Handlers throw ApiError; only the HTTP edge turns it into the spec's error body.

#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace smsgw {

enum class ErrorCode {
#define X(code, status, en, fr) code,
#include "domain/error_table.inc"
#undef X
};

struct ErrorInfo {
  ErrorCode code;
  std::string_view name;
  int http_status;
  std::string_view message_en;
  std::string_view message_fr;
};

const ErrorInfo& errorInfo(ErrorCode code);
std::optional<ErrorCode> errorCodeFromName(std::string_view name);
std::span<const ErrorInfo> allErrors();

// The one exception type for domain errors. `details` goes to the body as is;
// `retry_after_seconds` becomes a Retry-After header.
class ApiError : public std::runtime_error {
 public:
  explicit ApiError(ErrorCode code, nlohmann::json details = nullptr,
                    std::optional<int> retry_after_seconds = std::nullopt);

  ErrorCode code() const { return code_; }
  const nlohmann::json& details() const { return details_; }
  std::optional<int> retryAfterSeconds() const { return retry_after_; }

 private:
  ErrorCode code_;
  nlohmann::json details_;
  std::optional<int> retry_after_;
};

// A 422 VALIDATION_ERROR naming one field; `details` is the spec's validation array.
ApiError validationError(std::string_view field, std::string_view message);

}  // namespace smsgw
