#include "api/routes/consent_fields.h"

#include <arpa/inet.h>

#include "api/routes/validate.h"
#include "domain/casl.h"
#include "domain/errors.h"

namespace smsgw::api {
namespace {

bool given(const nlohmann::json& fields, const char* field) {
  return fields.contains(field) && !fields[field].is_null();
}

bool isIpAddress(const std::string& text) {
  unsigned char buffer[16];
  return inet_pton(AF_INET, text.c_str(), buffer) == 1 ||
         inet_pton(AF_INET6, text.c_str(), buffer) == 1;
}

std::optional<TimePoint> optionalTime(const nlohmann::json& fields, const char* field) {
  auto text = optionalString(fields, field, 40);
  if (!text) return std::nullopt;
  auto parsed = parseIso(*text);
  if (!parsed) throw validationError(field, "must be an ISO 8601 date or date-time");
  return parsed;
}

}  // namespace

void refuseEmailChannel(const std::string& address, const char* field) {
  if (!isEmailAddress(address)) {
    throw ApiError(
        ErrorCode::EMAIL_INVALID_ADDRESS,
        nlohmann::json::array({{{"field", field}, {"message", "must be an email address"}}}));
  }
  throw ApiError(ErrorCode::EMAIL_COMING_SOON);
}

compliance::ConsentDraft readConsentFields(const nlohmann::json& fields, TimePoint now) {
  if (!fields.is_object()) throw validationError("body", "must be a JSON object");
  if (given(fields, "phone_number") == given(fields, "email_address")) {
    throw validationError("phone_number", "give exactly one of phone_number and email_address");
  }
  if (given(fields, "email_address")) {
    refuseEmailChannel(requireString(fields, "email_address", 254), "email_address");
  }
  compliance::ConsentDraft draft;
  draft.phone_number =
      requirePhone(requireString(fields, "phone_number", 20), "phone_number").str();
  std::string type = requireString(fields, "consent_type", 20);
  if (type != "express" && type != "implied") {
    throw validationError("consent_type", "must be express or implied (lowercase)");
  }
  draft.source_description = optionalString(fields, "source_description", 1000);
  draft.source_ip = optionalString(fields, "source_ip", 45);
  draft.source_url = optionalString(fields, "source_url", 2048);
  draft.relationship_type = optionalString(fields, "relationship_type", 200);
  draft.last_transaction_date = optionalString(fields, "last_transaction_date", 40);
  if (draft.source_ip && !isIpAddress(*draft.source_ip)) {
    throw validationError("source_ip", "must be an IPv4 or IPv6 address");
  }

  if (type == "express") {
    draft.consent_type = "EXPRESS";
    if (!draft.source_description || draft.source_description->empty()) {
      throw validationError("source_description", "is required for express consent");
    }
    if (given(fields, "expires_at")) {
      throw validationError("expires_at", "express consent never expires");
    }
    return draft;
  }
  draft.consent_type = "IMPLIED";
  if (!draft.relationship_type || draft.relationship_type->empty()) {
    throw validationError("relationship_type", "is required for implied consent");
  }
  auto expires_at = optionalTime(fields, "expires_at");
  auto last_transaction = optionalTime(fields, "last_transaction_date");
  if (last_transaction && *last_transaction > now) {
    throw validationError("last_transaction_date", "is in the future");
  }
  // An expiry already past is a valid historic record: stored, and the consent check then
  // answers CONSENT_EXPIRED (and marks it EXPIRED).
  draft.expires_at = impliedConsentExpiry(expires_at, last_transaction, now);
  return draft;
}

}  // namespace smsgw::api
