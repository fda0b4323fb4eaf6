#include "adapters/http_client.h"

#include <curl/curl.h>

#include <memory>
#include <mutex>

namespace smsgw {
namespace {

size_t appendBody(char* data, size_t size, size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

struct BoundedBody {
  std::string* body;
  size_t max_bytes;
  bool too_large = false;
};

// Returning less than was given makes curl stop with CURLE_WRITE_ERROR.
size_t appendBounded(char* data, size_t size, size_t count, void* user) {
  auto* sink = static_cast<BoundedBody*>(user);
  if (sink->body->size() + size * count > sink->max_bytes) {
    sink->too_large = true;
    return 0;
  }
  sink->body->append(data, size * count);
  return size * count;
}

void initCurlOnce() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

using CurlHandle = std::unique_ptr<CURL, decltype(&curl_easy_cleanup)>;

// The thread's handle for kept connections: curl_easy_reset clears the options of the last
// call and keeps its connection cache.
CURL* threadHandle() {
  thread_local CurlHandle handle(curl_easy_init(), curl_easy_cleanup);
  if (handle) curl_easy_reset(handle.get());
  return handle.get();
}

// One call's options beyond httpRequest's arguments.
struct CallExtras {
  BoundedBody* bounded = nullptr;                          // a body limit (httpGetBounded)
  const std::vector<std::string>* read_headers = nullptr;  // response headers to keep
};

HttpResponse perform(const std::string& method, const std::string& url, const HttpHeaders& headers,
                     const std::string& body, std::chrono::milliseconds timeout,
                     const std::optional<PinnedAddress>& pinned, ConnectionUse use,
                     CallExtras extras) {
  initCurlOnce();
  HttpResponse response;
  CurlHandle fresh(use == ConnectionUse::Fresh ? curl_easy_init() : nullptr, curl_easy_cleanup);
  CURL* h = use == ConnectionUse::Fresh ? fresh.get() : threadHandle();
  if (!h) {
    response.error = "curl_easy_init failed";
    return response;
  }
  curl_slist* header_list = nullptr;
  for (const auto& [name, value] : headers) {
    std::string line = name;
    line.append(": ").append(value);
    header_list = curl_slist_append(header_list, line.c_str());
  }
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> header_guard(header_list,
                                                                           curl_slist_free_all);

  curl_slist* resolve_list = nullptr;
  if (pinned) {
    bool v6 = pinned->address.find(':') != std::string::npos;
    std::string entry = pinned->host + ":" + std::to_string(pinned->port) + ":" +
                        (v6 ? "[" + pinned->address + "]" : pinned->address);
    resolve_list = curl_slist_append(nullptr, entry.c_str());
  }
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> resolve_guard(resolve_list,
                                                                            curl_slist_free_all);

  if (resolve_list) curl_easy_setopt(h, CURLOPT_RESOLVE, resolve_list);
  if (use == ConnectionUse::KeepAlive) curl_easy_setopt(h, CURLOPT_MAXCONNECTS, 8L);
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method.c_str());
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, header_list);
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout.count()));
  if (extras.bounded) {
    extras.bounded->body = &response.body;
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, appendBounded);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, extras.bounded);
  } else {
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, appendBody);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &response.body);
  }
  if (method != "GET" && method != "DELETE") {
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, body.c_str());
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
  }
  auto started = std::chrono::steady_clock::now();
  CURLcode rc = curl_easy_perform(h);
  response.duration = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - started);
  long request_bytes = 0;
  curl_easy_getinfo(h, CURLINFO_REQUEST_SIZE, &request_bytes);
  response.request_sent = request_bytes > 0;
  if (rc != CURLE_OK) {
    response.error =
        extras.bounded && extras.bounded->too_large ? "too large" : curl_easy_strerror(rc);
    response.timed_out = rc == CURLE_OPERATION_TIMEDOUT;
    response.body.clear();
    return response;
  }
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &response.status);
  if (extras.read_headers) {
    for (const auto& name : *extras.read_headers) {
      curl_header* header = nullptr;  // curl finds the name whatever its case
      if (curl_easy_header(h, name.c_str(), 0, CURLH_HEADER, -1, &header) == CURLHE_OK)
        response.headers.emplace_back(name, header->value);
    }
  }
  return response;
}

}  // namespace

const std::string* HttpResponse::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (key == name) return &value;
  }
  return nullptr;
}

HttpResponse httpRequest(const std::string& method, const std::string& url,
                         const HttpHeaders& headers, const std::string& body,
                         std::chrono::milliseconds timeout,
                         const std::optional<PinnedAddress>& pinned, ConnectionUse use,
                         const std::vector<std::string>& read_headers) {
  return perform(method, url, headers, body, timeout, pinned, use,
                 {nullptr, read_headers.empty() ? nullptr : &read_headers});
}

BoundedResponse httpGetBounded(const std::string& url, const HttpHeaders& headers,
                               std::chrono::milliseconds timeout, const PinnedAddress& pinned,
                               size_t max_body_bytes) {
  static const std::vector<std::string> kCacheControl{"Cache-Control"};
  BoundedResponse out;
  BoundedBody bounded{nullptr, max_body_bytes, false};
  out.response = perform("GET", url, headers, "", timeout, pinned, ConnectionUse::Fresh,
                         {&bounded, &kCacheControl});
  if (const std::string* cache_control = out.response.header("Cache-Control"))
    out.cache_control = *cache_control;
  return out;
}

}  // namespace smsgw
