#pragma once
// The OAuth consent page: a small server-rendered form in English or French, no JavaScript.
// Everything a client chose (its name, its redirect URI) is escaped before it is shown.

#include <map>
#include <optional>
#include <string>

#include "domain/locale.h"
#include "domain/permissions.h"

namespace smsgw::api {

struct ConsentPage {
  std::string client_name;
  std::string client_id;
  std::string redirect_uri;
  std::map<std::string, std::string> request;  // the authorization request, sent back hidden
  std::string csrf_token;
  Permissions requested;
  std::string email;  // kept when the form is shown again
  bool wrong_credentials = false;
  bool self_registered = false;           // shown as unverified
  std::optional<int> locked_for_minutes;  // too many wrong passwords for the account
};

std::string renderConsentPage(const ConsentPage& page, Language language);

// A request that cannot go back to its client (unknown client, wrong redirect URI, an expired
// form): the reason, in the user's language.
std::string renderRefusalPage(std::string_view problem_en, std::string_view problem_fr,
                              Language language);

}  // namespace smsgw::api
