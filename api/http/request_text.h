#pragma once
// What the text of a request may hold, checked at the edge before any route, log line or the
// database sees it:
// - JSON bodies nest at most kMaxJsonDepth levels: anything that walks a value recursively
//   (printing it, copying it) would otherwise exhaust its stack on a 200 KB body of brackets;
// - no string or key holds NUL: C strings and PostgreSQL text would silently cut it short;
// - URLs, query values and headers are UTF-8 without control characters.
// Pure functions; safe on any thread.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "domain/bounded_json.h"
#include "domain/text_cut.h"

namespace smsgw::api {

// A JSON body: 422 VALIDATION_ERROR (field body) when it is not UTF-8; 400
// FST_ERR_CTP_INVALID_JSON_BODY when it is not JSON or nests deeper than kMaxJsonDepth; 422
// VALIDATION_ERROR naming the field when a string or key holds NUL.
nlohmann::json parseJsonBody(std::string_view raw);

// Valid UTF-8 (isValidUtf8, domain/text_cut.h) without C0 controls or DEL (a tab is allowed:
// header values may hold one).
bool isCleanText(std::string_view text);
// Characters (code points) of valid UTF-8: what a length limit counts.
size_t utf8Length(std::string_view text);

// An X-Request-Id the edge may echo and log: 1 to 200 visible ASCII characters.
bool isUsableRequestId(std::string_view value);

}  // namespace smsgw::api
