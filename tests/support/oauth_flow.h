#pragma once
// An OAuth client for tests, as a real one drives the gateway: it registers, opens the consent
// page, submits its form as the account owner would, and trades the code for tokens. Each
// step is separate, so a test can tamper with any of them.

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/accounts.h"
#include "tests/support/http_test_client.h"

namespace smsgw::testing {

using FormFields = std::vector<std::pair<std::string, std::string>>;

// application/x-www-form-urlencoded, each name and value percent-encoded.
std::string formEncoded(const FormFields& fields);
Reply postForm(HttpTestClient& api, const std::string& path, const FormFields& fields,
               Headers headers = {});

// The consent page as a browser got it: its cookie and the form's hidden fields.
struct ConsentForm {
  Reply page;
  std::string cookie;  // "smsgw_oauth_csrf=…", or empty when none was set
  FormFields hidden;   // the request's parameters and csrf_token
};

// What the MCP endpoint calls itself, as a client learns it (RFC 9728): the API's public base
// URL and /mcp, which need not be the address the tests reach it by.
std::string mcpResource(HttpTestClient& api);

// A client id metadata document's text: the client's own URL, a name and its redirect URIs.
std::string clientDocument(const std::string& client_id, const std::string& name,
                           const std::vector<std::string>& redirect_uris);

// The query parameter `name` of a URL (a redirect's Location), percent-decoded; "" if absent.
std::string queryParameter(const std::string& url, const std::string& name);

class OAuthClient {
 public:
  // Registers a client with this redirect URI (RFC 7591); fails the test if refused.
  OAuthClient(HttpTestClient& api, std::string redirect_uri = "http://127.0.0.1:9/callback",
              std::string name = "Test app");
  // A client known by a metadata document's URL, not registered.
  static OAuthClient knownBy(HttpTestClient& api, std::string client_id, std::string redirect_uri);

  const std::string& id() const { return client_id_; }
  const std::string& verifier() const { return verifier_; }
  // The authorization request's parameters (no `resource`: a token for the whole API); a test
  // may change them before opening the page.
  std::map<std::string, std::string> request;

  ConsentForm open(const Headers& headers = {});
  // Submits the form as the owner: `choices` are the fields a person fills (email, password,
  // mode, perm_*, decision); missing ones get an approval in TEST with what was asked.
  Reply submit(const ConsentForm& form, const TestAccount& owner, FormFields choices = {});
  // The token requests; `extra` fields replace the usual ones of the same name, or add to them.
  Reply exchange(const std::string& code, const FormFields& extra = {});
  Reply refresh(const std::string& refresh_token, const FormFields& extra = {});
  // The whole flow, approved in `mode`: the token response.
  nlohmann::json connect(const TestAccount& owner, const std::string& mode = "TEST");

 private:
  OAuthClient(HttpTestClient& api, std::string client_id, std::string redirect_uri, bool);
  HttpTestClient* api_;
  std::string client_id_;
  std::string redirect_uri_;
  std::string verifier_;
};

}  // namespace smsgw::testing
