#pragma once
// Request validation shared by routes. Every failure is an ApiError (422 VALIDATION_ERROR
// naming the field, unless a route-specific code applies), thrown before anything changes.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "api/http/api_types.h"
#include "domain/phone.h"

namespace smsgw::api {

const nlohmann::json& requireObjectBody(const ApiRequest& req);
std::string requireString(const nlohmann::json& body, const char* field, size_t max_length = 1000);
std::optional<std::string> optionalString(const nlohmann::json& body, const char* field,
                                          size_t max_length = 1000);
long long requireInteger(const nlohmann::json& body, const char* field, long long min,
                         long long max);
std::optional<bool> optionalBool(const nlohmann::json& body, const char* field);
// E.164 or 422 INVALID_PHONE_NUMBER naming the field.
E164 requirePhone(const std::string& value, const char* field);
// A plausible email address (something@domain.tld); deliverability is not checked.
bool isEmailAddress(const std::string& value);
// Page and limit of the page/limit families (consents, opt-outs, messages); 422 when out of range.
struct Page {
  int page;
  int limit;
  int offset() const { return (page - 1) * limit; }
};
Page queryPage(const ApiRequest& req, int default_limit = 20, int max_limit = 100);
// A query integer within bounds, else 422 naming it.
int queryInteger(const ApiRequest& req, const char* name, int fallback, int min, int max);

}  // namespace smsgw::api
