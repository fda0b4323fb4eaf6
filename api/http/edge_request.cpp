#include "api/http/edge_request.h"

#include <http_parser.h>

#include <algorithm>
#include <array>
#include <cctype>

#include "api/http/request_text.h"
#include "api/http/router.h"
#include "domain/ids.h"

namespace smsgw::api {
namespace {

// Headers whose second value would be ambiguous (which key, which body type?): refused.
constexpr std::array<std::string_view, 7> kSingleValued = {
    "authorization", "x-api-key",       "content-type", "content-length",
    "host",          "idempotency-key", "x-request-id"};

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

ApiError badUrl(const char* part) {
  return ApiError(ErrorCode::FST_ERR_BAD_URL, {{"part", part}});
}

ApiError badHeader(const std::string& name, const char* reason) {
  return ApiError(ErrorCode::FST_ERR_BAD_REQUEST, {{"header", name}, {"reason", reason}});
}

void readHeaders(FramedRequest& framed, ApiRequest& req) {
  for (auto& [raw_name, value] : framed.headers) {
    std::string name = lower(raw_name);  // the framer let only token characters through
    if (!isCleanText(value)) throw badHeader(name, "not UTF-8 text without control characters");
    auto [it, inserted] = req.headers.emplace(name, value);
    if (inserted) continue;
    if (std::find(kSingleValued.begin(), kSingleValued.end(), name) != kSingleValued.end())
      throw badHeader(name, "sent more than once");
    it->second += ", " + value;  // a list-valued header (RFC 9110 5.3)
  }
}

// The name=value pairs of a query string or a form body, split on '&' (empty ones skipped) and
// each side decoded by `decode`; `take` gets the raw name and both decoded sides.
template <typename Decode, typename Take>
void forEachPair(std::string_view text, Decode decode, Take take) {
  while (!text.empty()) {
    size_t amp = text.find('&');
    std::string_view pair = text.substr(0, amp);
    text = amp == std::string_view::npos ? std::string_view() : text.substr(amp + 1);
    if (pair.empty()) continue;
    size_t eq = pair.find('=');
    take(pair.substr(0, eq), decode(pair.substr(0, eq)),
         eq == std::string_view::npos ? std::string() : decode(pair.substr(eq + 1)));
  }
}

// A query or form component: '+' is a space, then %XX escapes (WHATWG URL,
// application/x-www-form-urlencoded), as browsers' forms and URLSearchParams encode them.
std::string formDecode(std::string_view part) {
  std::string plus_as_space(part);
  std::replace(plus_as_space.begin(), plus_as_space.end(), '+', ' ');
  return percentDecode(plus_as_space);
}

// The query's parameters, decoded as a form's; the first of repeated names wins. A '+' that
// means a plus is sent as %2B (routes that read phone numbers also take a bare one:
// api/routes/validate.h).
void readQuery(std::string_view query, ApiRequest& req) {
  forEachPair(query, formDecode, [&](std::string_view, std::string name, std::string value) {
    if (!isCleanText(name) || !isCleanText(value)) throw badUrl("query");
    req.query.emplace(std::move(name), std::move(value));
  });
}

void readTarget(const std::string& target, ApiRequest& req) {
  http_parser_url url;
  http_parser_url_init(&url);
  if (http_parser_parse_url(target.data(), target.size(), 0, &url) != 0 ||
      !(url.field_set & (1 << UF_PATH))) {
    throw badUrl("target");
  }
  auto field = [&](http_parser_url_fields which) {
    if (!(url.field_set & (1 << which))) return std::string_view();
    return std::string_view(target).substr(url.field_data[which].off, url.field_data[which].len);
  };
  std::string path(field(UF_PATH));
  // Route parameters are decoded segment by segment; the whole decoded path must be text too.
  if (!isCleanText(path) || !isCleanText(percentDecode(path))) throw badUrl("path");
  req.path = std::move(path);
  req.raw_query = field(UF_QUERY);
  readQuery(req.raw_query, req);
}

bool isJsonContentType(const std::string& content_type) {
  std::string media = lower(content_type.substr(0, content_type.find(';')));
  while (!media.empty() && std::isspace(static_cast<unsigned char>(media.back()))) media.pop_back();
  return media == "application/json" ||
         (media.starts_with("application/") && media.ends_with("+json"));
}

bool hasBodyMethod(const std::string& method) {
  return method == "POST" || method == "PATCH" || method == "PUT";
}

bool isCsvContentType(const std::string& content_type) {
  return lower(content_type.substr(0, content_type.find(';'))).starts_with("text/csv");
}

bool isFormContentType(const std::string& content_type) {
  std::string media = lower(content_type.substr(0, content_type.find(';')));
  while (!media.empty() && std::isspace(static_cast<unsigned char>(media.back()))) media.pop_back();
  return media == "application/x-www-form-urlencoded";
}

// application/x-www-form-urlencoded (WHATWG URL, "application/x-www-form-urlencoded parsing"):
// '+' is a space, then %XX escapes. A name given twice is refused (OAuth 2.1 section 3.1: no
// parameter may be sent more than once, and which one would count?).
void readForm(std::string_view body, ApiRequest& req) {
  req.form = formFields(body, "body");
}

}  // namespace

std::map<std::string, std::string> formFields(std::string_view text, const char* what) {
  std::map<std::string, std::string> fields;
  forEachPair(text, formDecode,
              [&](std::string_view raw_name, std::string name, std::string value) {
                if (!isCleanText(name) || !isCleanText(value))
                  throw validationError(what, "must be UTF-8 text without control characters");
                if (!fields.emplace(std::move(name), std::move(value)).second)
                  throw validationError(raw_name, "given more than once");
              });
  return fields;
}

void readBody(ApiRequest& req, size_t max_bytes, BodyKinds kinds) {
  if (!hasBodyMethod(req.method)) return;
  auto content_type = req.header("content-type");
  bool json_type = content_type && isJsonContentType(*content_type);
  bool empty = req.raw_body.find_first_not_of(" \t\r\n") == std::string::npos;
  if (empty) {
    // Like Fastify: an empty body is no body, unless it claims to be JSON.
    if (json_type) throw ApiError(ErrorCode::FST_ERR_CTP_EMPTY_JSON_BODY);
    return;
  }
  bool csv_upload = kinds.csv && content_type && isCsvContentType(*content_type);
  bool form = kinds.form && content_type && isFormContentType(*content_type);
  if (!json_type && !csv_upload && !form) throw ApiError(ErrorCode::FST_ERR_CTP_INVALID_MEDIA_TYPE);
  if (req.raw_body.size() > max_bytes) throw ApiError(ErrorCode::FST_ERR_CTP_BODY_TOO_LARGE);
  if (form) {
    readForm(req.raw_body, req);
    return;
  }
  if (csv_upload) {
    if (!isValidUtf8(req.raw_body) || req.raw_body.find('\0') != std::string::npos)
      throw validationError("body", "must be UTF-8 text without NUL characters");
    return;
  }
  req.body = parseJsonBody(req.raw_body);
}

EdgeRequest readEdgeRequest(FramedRequest&& framed, std::string client_ip) {
  EdgeRequest out;
  ApiRequest& req = out.request;
  req.method = std::move(framed.method);
  req.client_ip = std::move(client_ip);
  req.raw_body = std::move(framed.body);
  try {
    readHeaders(framed, req);
    req.language = preferredLanguage(req.header("accept-language").value_or(""));
    auto id = req.header("x-request-id");
    if (id && !isUsableRequestId(*id)) {
      out.request_id = newId("req");
      throw badHeader("x-request-id", "must be 1 to 200 visible ASCII characters");
    }
    out.request_id = id ? *id : newId("req");
    readTarget(framed.target, req);
  } catch (const ApiError& refusal) {
    if (out.request_id.empty()) out.request_id = newId("req");
    out.refusal = refusal;
  }
  return out;
}

}  // namespace smsgw::api
