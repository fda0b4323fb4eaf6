#include "api/routes/validate.h"

#include <fmt/format.h>

#include <cctype>
#include <regex>

#include "api/http/request_text.h"
#include "domain/casl.h"
#include "domain/display_name.h"
#include "domain/errors.h"
#include "domain/text_cut.h"

namespace smsgw::api {

const nlohmann::json& requireObjectBody(const ApiRequest& req) {
  if (!req.body.is_object()) throw validationError("body", "must be a JSON object");
  return req.body;
}

std::string requireString(const nlohmann::json& body, const char* field, size_t max_length) {
  auto value = optionalString(body, field, max_length);
  if (!value || value->empty()) throw validationError(field, "is required");
  return *value;
}

std::optional<std::string> optionalString(const nlohmann::json& body, const char* field,
                                          size_t max_length) {
  if (!body.contains(field) || body[field].is_null()) return std::nullopt;
  if (!body[field].is_string()) throw validationError(field, "must be a string");
  const auto& value = body[field].get_ref<const std::string&>();
  if (utf8Length(value) > max_length)  // characters, not bytes: "é" is one
    throw validationError(field, fmt::format("must be at most {} characters", max_length));
  return value;
}

long long requireInteger(const nlohmann::json& body, const char* field, long long min,
                         long long max) {
  if (!body.contains(field) || body[field].is_null()) throw validationError(field, "is required");
  if (!body[field].is_number_integer()) throw validationError(field, "must be an integer");
  long long value = body[field].get<long long>();
  if (value < min || value > max)
    throw validationError(field, fmt::format("must be between {} and {}", min, max));
  return value;
}

std::optional<bool> optionalBool(const nlohmann::json& body, const char* field) {
  if (!body.contains(field) || body[field].is_null()) return std::nullopt;
  if (!body[field].is_boolean()) throw validationError(field, "must be a boolean");
  return body[field].get<bool>();
}

void requireReadableName(const std::string& value, const char* field, bool may_claim_us) {
  switch (displayNameProblem(value)) {
    case DisplayNameProblem::None:
      return;
    case DisplayNameProblem::NotText:
      throw validationError(field, "must be text");
    case DisplayNameProblem::HiddenCharacter:
      throw validationError(field,
                            "must not hold control, format (bidi, zero-width) or separator "
                            "characters");
    case DisplayNameProblem::ClaimsToBeUs:
      if (may_claim_us) return;
      throw validationError(field, "must not read as this service's name or as official");
  }
}

void requireBrandName(const std::string& value, const char* field) {
  if (characterCount(value) > kSignatureCharacters)
    throw validationError(field, "must be at most 40 characters");
  if (!isBrandName(value))
    throw validationError(field,
                          "must be a brand name: letters, digits, spaces and & ' - . (no link, "
                          "no message)");
  requireReadableName(value, field, /*may_claim_us=*/false);
}

E164 requirePhone(const std::string& value, const char* field) {
  auto parsed = E164::parse(value);
  if (!parsed) {
    throw ApiError(
        ErrorCode::INVALID_PHONE_NUMBER,
        nlohmann::json::array(
            {{{"field", field}, {"message", "must be an E.164 number such as +14165550123"}}}));
  }
  return *parsed;
}

bool isEmailAddress(const std::string& value) {
  static const std::regex kEmailPattern(R"([^@\s]+@[^@\s]+\.[^@\s]+)");
  return value.size() <= 254 && std::regex_match(value, kEmailPattern);
}

Page queryPage(const ApiRequest& req, int default_limit, int max_limit) {
  return {queryInteger(req, "page", 1, 1, 1'000'000),
          queryInteger(req, "limit", default_limit, 1, max_limit)};
}

std::string queryValue(const ApiRequest& req, const char* name) {
  auto it = req.query.find(name);
  return it == req.query.end() ? "" : it->second;
}

std::string queryNumberText(const ApiRequest& req, const char* name) {
  std::string value = queryValue(req, name);
  if (value.size() > 1 && value[0] == ' ' && std::isdigit(static_cast<unsigned char>(value[1])))
    value[0] = '+';
  return value;
}

std::string queryTimeText(const ApiRequest& req, const char* name) {
  std::string value = queryValue(req, name);
  static const std::regex kSpacedOffset(R"(T\d\d:\d\d(:\d\d(\.\d+)?)? \d\d(:?\d\d)?$)");
  if (std::regex_search(value, kSpacedOffset)) value[value.rfind(' ')] = '+';
  return value;
}

std::string queryPhone(const ApiRequest& req, const char* name) {
  std::string value = queryNumberText(req, name);
  return value.empty() ? "" : requirePhone(value, name).str();
}

int queryInteger(const ApiRequest& req, const char* name, int fallback, int min, int max) {
  auto it = req.query.find(name);
  if (it == req.query.end() || it->second.empty()) return fallback;
  try {
    size_t used = 0;
    int value = std::stoi(it->second, &used);
    if (used == it->second.size() && value >= min && value <= max) return value;
  } catch (const std::exception&) {
  }
  throw validationError(name, fmt::format("must be an integer between {} and {}", min, max));
}

}  // namespace smsgw::api
