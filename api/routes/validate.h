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
// A name a person reads (an account's, a contact's, a group's or a list's): text without
// control, format (bidi overrides, zero-width) or separator characters (domain/display_name.h),
// or 422 naming the field. Unless `may_claim_us`, also a name that reads as this service's or as
// "official" (an account's name may sign texts to third parties).
void requireReadableName(const std::string& value, const char* field, bool may_claim_us = true);
// A brand that signs texts sent to third parties (an account's sender_name, an opt-in request's
// brand_name): at most 40 characters, letters, digits, spaces and & ' - . (isBrandName: no link,
// no message), not ours; else 422 naming the field.
void requireBrandName(const std::string& value, const char* field);
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
// A query parameter as decoded ("" when absent). Queries are read as forms encode them, '+' a
// space (api/http/edge_request.h).
std::string queryValue(const ApiRequest& req, const char* name);
// A query parameter that may hold a phone number (a filter, a search): a '+' the client did not
// percent-encode arrived as a space, and a leading space before a digit means nothing else, so
// it is read as the '+' it was. "+1514…" and "%2B1514…" find the same rows.
std::string queryNumberText(const ApiRequest& req, const char* name);
// A query parameter that may hold a date-time: "…T10:00:00 05:00" is read as the "+05:00" an
// unencoded '+' was.
std::string queryTimeText(const ApiRequest& req, const char* name);
// A phone-number filter in E.164, "" when absent; 422 naming it when it is not a number.
std::string queryPhone(const ApiRequest& req, const char* name);

}  // namespace smsgw::api
