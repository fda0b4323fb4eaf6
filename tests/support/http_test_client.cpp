#include "tests/support/http_test_client.h"

#include <curl/curl.h>
#include <gtest/gtest.h>

#include <cctype>
#include <stdexcept>

#include "tests/support/test_env.h"

namespace smsgw::testing {
namespace {

size_t onBody(char* data, size_t size, size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

size_t onHeader(char* data, size_t size, size_t count, void* user) {
  std::string line(data, size * count);
  auto colon = line.find(':');
  if (colon != std::string::npos) {
    std::string name = line.substr(0, colon);
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string value = line.substr(colon + 1);
    while (!value.empty() && std::isspace(static_cast<unsigned char>(value.front())))
      value.erase(0, 1);
    while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back())))
      value.pop_back();
    auto& headers = *static_cast<std::map<std::string, std::string>*>(user);
    auto [it, added] = headers.try_emplace(name, value);
    if (!added) it->second += "\n" + value;
  }
  return size * count;
}

}  // namespace

std::string Reply::header(const std::string& name) const {
  auto it = headers.find(name);
  return it == headers.end() ? "" : it->second;
}

HttpTestClient::HttpTestClient(std::string base_url)
    : base_url_(std::move(base_url)), curl_(curl_easy_init()) {}

HttpTestClient::~HttpTestClient() {
  curl_easy_cleanup(static_cast<CURL*>(curl_));
}

Reply HttpTestClient::call(const std::string& method, const std::string& path,
                           const Headers& headers, const nlohmann::json& body,
                           const std::string* raw) {
  CURL* h = static_cast<CURL*>(curl_);
  Reply reply;
  std::string payload = raw ? *raw : (body.is_null() ? "" : body.dump());
  curl_slist* list = nullptr;
  bool has_content_type = false;
  for (const auto& [name, value] : headers) {
    list = curl_slist_append(list, (name + ": " + value).c_str());
    if (name == "Content-Type") has_content_type = true;
  }
  if (!raw && !body.is_null() && !has_content_type)
    list = curl_slist_append(list, "Content-Type: application/json");
  list = curl_slist_append(list, "Expect:");
  curl_easy_setopt(h, CURLOPT_URL, (base_url_ + path).c_str());
  curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method.c_str());
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, list);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, 30000L);
  if (!ca_file_.empty()) curl_easy_setopt(h, CURLOPT_CAINFO, ca_file_.c_str());
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, onBody);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &reply.raw_body);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, onHeader);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &reply.headers);
  if (method == "GET" || method == "DELETE") {
    curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method.c_str());
  } else {
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, payload.c_str());
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, static_cast<long>(payload.size()));
  }
  CURLcode rc = curl_easy_perform(h);
  curl_slist_free_all(list);
  if (rc != CURLE_OK)
    throw std::runtime_error(std::string("HTTP call failed: ") + curl_easy_strerror(rc));
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &reply.status);
  curl_easy_getinfo(h, CURLINFO_NUM_CONNECTS, &reply.new_connections);
  reply.body = nlohmann::json::parse(reply.raw_body, nullptr, false);
  if (reply.body.is_discarded()) reply.body = nullptr;
  return reply;
}

Headers bearer(const std::string& key, Headers more) {
  more.emplace_back("Authorization", "Bearer " + key);
  return more;
}

std::string idOf(const Reply& reply) {
  EXPECT_TRUE(reply.status == 200 || reply.status == 201) << reply.status << reply.raw_body;
  return reply.body.is_object() ? reply.body.value("id", "") : "";
}

}  // namespace smsgw::testing
