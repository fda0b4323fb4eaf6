#include "tests/support/oauth_flow.h"

#include <curl/curl.h>
#include <gtest/gtest.h>

#include <regex>

#include "domain/crypto.h"
#include "domain/pkce.h"

namespace smsgw::testing {
namespace {

std::string escape(const std::string& text) {
  char* escaped = curl_easy_escape(nullptr, text.c_str(), static_cast<int>(text.size()));
  std::string out = escaped;
  curl_free(escaped);
  return out;
}

std::string unescape(const std::string& text) {
  int length = 0;
  char* raw = curl_easy_unescape(nullptr, text.c_str(), static_cast<int>(text.size()), &length);
  std::string out(raw, static_cast<size_t>(length));
  curl_free(raw);
  return out;
}

std::string htmlUnescaped(std::string text) {
  for (const auto& [entity, c] :
       {std::pair{"&quot;", "\""}, std::pair{"&#39;", "'"}, std::pair{"&lt;", "<"},
        std::pair{"&gt;", ">"}, std::pair{"&amp;", "&"}}) {
    for (size_t at; (at = text.find(entity)) != std::string::npos;)
      text.replace(at, std::string(entity).size(), c);
  }
  return text;
}

// The fields with each of `changes` put in place of its namesake, or added.
FormFields overridden(FormFields fields, const FormFields& changes) {
  for (const auto& change : changes) {
    auto it = std::find_if(fields.begin(), fields.end(),
                           [&](const auto& field) { return field.first == change.first; });
    if (it == fields.end())
      fields.push_back(change);
    else
      it->second = change.second;
  }
  return fields;
}

}  // namespace

std::string mcpResource(HttpTestClient& api) {
  Reply metadata = api.call("GET", "/.well-known/oauth-protected-resource/mcp");
  EXPECT_EQ(metadata.status, 200) << metadata.raw_body;
  return metadata.body.is_object() ? metadata.body.value("resource", "") : "";
}

std::string formEncoded(const FormFields& fields) {
  std::string body;
  for (const auto& [name, value] : fields)
    body += (body.empty() ? "" : "&") + escape(name) + "=" + escape(value);
  return body;
}

Reply postForm(HttpTestClient& api, const std::string& path, const FormFields& fields,
               Headers headers) {
  headers.emplace_back("Content-Type", "application/x-www-form-urlencoded");
  std::string body = formEncoded(fields);
  return api.call("POST", path, headers, nullptr, &body);
}

std::string clientDocument(const std::string& client_id, const std::string& name,
                           const std::vector<std::string>& redirect_uris) {
  return nlohmann::json(
             {{"client_id", client_id}, {"client_name", name}, {"redirect_uris", redirect_uris}})
      .dump();
}

std::string queryParameter(const std::string& url, const std::string& name) {
  size_t query = url.find('?');
  if (query == std::string::npos) return "";
  std::string rest = url.substr(query + 1);
  size_t at = 0;
  while (at <= rest.size()) {
    size_t end = std::min(rest.find('&', at), rest.size());
    std::string pair = rest.substr(at, end - at);
    size_t eq = pair.find('=');
    if (pair.substr(0, eq) == name) {
      std::string value = eq == std::string::npos ? "" : pair.substr(eq + 1);
      std::replace(value.begin(), value.end(), '+', ' ');
      return unescape(value);
    }
    at = end + 1;
  }
  return "";
}

OAuthClient::OAuthClient(HttpTestClient& api, std::string client_id, std::string redirect_uri, bool)
    : api_(&api), client_id_(std::move(client_id)), redirect_uri_(std::move(redirect_uri)) {
  verifier_ = crypto::hex(crypto::randomBytes(32));
  request = {{"response_type", "code"},         {"client_id", client_id_},
             {"redirect_uri", redirect_uri_},   {"code_challenge", oauth::challengeOf(verifier_)},
             {"code_challenge_method", "S256"}, {"state", crypto::hex(crypto::randomBytes(8))}};
}

OAuthClient::OAuthClient(HttpTestClient& api, std::string redirect_uri, std::string name)
    : OAuthClient(api, "", redirect_uri, true) {
  Reply registered = api.call("POST", "/oauth/register", {},
                              {{"client_name", name}, {"redirect_uris", {redirect_uri}}});
  EXPECT_EQ(registered.status, 201) << registered.raw_body;
  client_id_ = registered.body.value("client_id", "");
  request["client_id"] = client_id_;
}

OAuthClient OAuthClient::knownBy(HttpTestClient& api, std::string client_id,
                                 std::string redirect_uri) {
  return OAuthClient(api, std::move(client_id), std::move(redirect_uri), true);
}

ConsentForm OAuthClient::open(const Headers& headers) {
  FormFields query(request.begin(), request.end());
  ConsentForm form;
  form.page = api_->call("GET", "/oauth/authorize?" + formEncoded(query), headers);
  std::string set_cookie = form.page.header("set-cookie");
  form.cookie = set_cookie.substr(0, set_cookie.find(';'));
  static const std::regex kHidden(R"re(<input type="hidden" name="([^"]+)" value="([^"]*)">)re");
  for (std::sregex_iterator it(form.page.raw_body.begin(), form.page.raw_body.end(), kHidden), end;
       it != end; ++it)
    form.hidden.emplace_back((*it)[1], htmlUnescaped((*it)[2]));
  return form;
}

Reply OAuthClient::submit(const ConsentForm& form, const TestAccount& owner, FormFields choices) {
  auto given = [&](const std::string& name) {
    return std::any_of(choices.begin(), choices.end(),
                       [&](const auto& field) { return field.first == name; });
  };
  FormFields fields = form.hidden;
  if (!given("email")) fields.emplace_back("email", owner.email);
  if (!given("password")) fields.emplace_back("password", owner.password);
  if (!given("mode")) fields.emplace_back("mode", "TEST");
  if (!given("decision")) fields.emplace_back("decision", "approve");
  // The boxes the page ticked, unless the test ticks its own.
  bool ticks_own = std::any_of(choices.begin(), choices.end(),
                               [](const auto& field) { return field.first.starts_with("perm_"); });
  if (!ticks_own) {
    static const std::regex kBox(R"re(name="(perm_[a-z_]+)" value="([a-z]+)" checked)re");
    for (std::sregex_iterator it(form.page.raw_body.begin(), form.page.raw_body.end(), kBox), end;
         it != end; ++it)
      fields.emplace_back((*it)[1], (*it)[2]);
  }
  fields.insert(fields.end(), choices.begin(), choices.end());
  Headers headers;
  if (!form.cookie.empty()) headers.emplace_back("Cookie", form.cookie);
  return postForm(*api_, "/oauth/authorize", fields, headers);
}

Reply OAuthClient::exchange(const std::string& code, const FormFields& extra) {
  FormFields fields = {{"grant_type", "authorization_code"},
                       {"code", code},
                       {"code_verifier", verifier_},
                       {"client_id", client_id_},
                       {"redirect_uri", redirect_uri_}};
  return postForm(*api_, "/oauth/token", overridden(fields, extra));
}

Reply OAuthClient::refresh(const std::string& refresh_token, const FormFields& extra) {
  FormFields fields = {
      {"grant_type", "refresh_token"}, {"refresh_token", refresh_token}, {"client_id", client_id_}};
  return postForm(*api_, "/oauth/token", overridden(fields, extra));
}

nlohmann::json OAuthClient::connect(const TestAccount& owner, const std::string& mode) {
  ConsentForm form = open();
  EXPECT_EQ(form.page.status, 200) << form.page.raw_body;
  Reply approved = submit(form, owner, {{"mode", mode}});
  EXPECT_EQ(approved.status, 303) << approved.raw_body;
  std::string code = queryParameter(approved.header("location"), "code");
  EXPECT_FALSE(code.empty()) << approved.header("location");
  Reply tokens = exchange(code);
  EXPECT_EQ(tokens.status, 200) << tokens.raw_body;
  return tokens.body;
}

}  // namespace smsgw::testing
