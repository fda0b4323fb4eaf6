#pragma once
// Where an OAuth client may send the user back with a code (OAuth 2.1 section 2.3.1, RFC 8252
// section 7.3 for native apps). A redirect URI is registered whole and presented whole:
//   - https with a host, no user name or password, no fragment; or
//   - http on a loopback address (127.0.0.1, [::1], or localhost) for an app on the user's own
//     machine, whose port may change from one run to the next.
// Parsed with libcurl's URL parser, as webhook URLs are.

#include <string>
#include <utility>
#include <vector>

namespace smsgw::oauth {

enum class RedirectVerdict { Allowed, NotAbsolute, NotHttps, HasFragment, HasCredentials };

RedirectVerdict checkRedirectUri(const std::string& uri);

// Whether `presented` (an authorization request's redirect_uri) is the `registered` one:
// the same string, or for a loopback http URI the same apart from the port.
bool redirectUriMatches(const std::string& registered, const std::string& presented);

// `uri` (a checked redirect URI) with the parameters added to its query, each percent-encoded.
std::string redirectWith(const std::string& uri,
                         const std::vector<std::pair<std::string, std::string>>& parameters);

}  // namespace smsgw::oauth
