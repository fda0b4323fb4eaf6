#pragma once
// A framed request as the routes see it: the URL split into path and query (decoded as forms
// encode it: '+' a space, then %XX escapes), the headers in one map by lower-cased name, the
// answer's language and request id. What no
// route may see is refused here, in the spec's shape: a URL or header value that is not UTF-8
// without control characters (it would reach PostgreSQL, the logs and the JSON writer), two
// values for a header that takes one (which would win?), an X-Request-Id the edge cannot echo.
// Pure; safe on any thread.

#include <map>
#include <optional>
#include <string>

#include "api/http/api_types.h"
#include "api/http/request_framer.h"
#include "domain/errors.h"

namespace smsgw::api {

struct EdgeRequest {
  ApiRequest request;               // filled as far as the checks got
  std::optional<ApiError> refusal;  // answer this instead of routing
  std::string request_id;           // the client's X-Request-Id when usable, else a new one
};

EdgeRequest readEdgeRequest(FramedRequest&& framed, std::string client_ip);

// What a route takes besides JSON (RouteOptions::accepts_csv, accepts_form).
struct BodyKinds {
  bool csv = false;
  bool form = false;
};

// The body of a POST, PATCH or PUT, read the way Fastify would (its FST_ERR_* codes are the
// spec's): JSON into req.body (request_text.h's limits); for a route that takes uploads a
// text/csv body left in raw_body once it is known to be UTF-8 without NUL; for a route that
// takes forms (OAuth) an application/x-www-form-urlencoded body decoded into req.form, each
// name once. Throws ApiError.
void readBody(ApiRequest& req, size_t max_bytes, BodyKinds kinds);

// application/x-www-form-urlencoded pairs ('+' a space, then %XX escapes), each name once: a
// form body, or a query read as a browser's form sends it (OAuth's authorization request).
// Throws ApiError VALIDATION_ERROR naming `what` or the repeated name.
std::map<std::string, std::string> formFields(std::string_view text, const char* what);

}  // namespace smsgw::api
