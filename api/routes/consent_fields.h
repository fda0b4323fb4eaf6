#pragma once
// Reading one consent from request fields: POST /v1/compliance/consents, and each consent
// batch row merged over the batch's defaults. Every rule of the spec's table, with the error
// it names; nothing is written here.

#include <nlohmann/json.hpp>

#include "domain/clock.h"
#include "services/compliance/records.h"

namespace smsgw::api {

// Throws ApiError: VALIDATION_ERROR naming the field (not exactly one of phone_number and
// email_address; express without source_description or with expires_at; implied without
// relationship_type; a date that does not parse or an implied consent already lapsed),
// INVALID_PHONE_NUMBER, EMAIL_INVALID_ADDRESS, or EMAIL_COMING_SOON for a valid email address.
compliance::ConsentDraft readConsentFields(const nlohmann::json& fields, TimePoint now);

// EMAIL_INVALID_ADDRESS unless `address` is an email address; EMAIL_COMING_SOON when it is.
[[noreturn]] void refuseEmailChannel(const std::string& address, const char* field);

}  // namespace smsgw::api
