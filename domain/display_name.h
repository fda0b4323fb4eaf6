#pragma once
// Names a stranger chose that a person will read as a claim of identity: an OAuth client's
// name on the consent page. Such a name must be plain text a reader sees as written, and must
// not pass itself off as us. Unicode's rules come from ICU (character categories, and the
// confusable skeletons of UTS #39 so that "SMS Gatewаy" with a Cyrillic а is caught too).
// Pure; safe on any thread.

#include <string_view>

namespace smsgw {

enum class DisplayNameProblem {
  None,
  NotText,          // not UTF-8, or holds an unassigned code point
  HiddenCharacter,  // a control, format (bidi overrides, zero-width), separator or private-use one
  ClaimsToBeUs,     // reads as the platform's own name, or as "official"
};

DisplayNameProblem displayNameProblem(std::string_view name);

// A brand as a text names its sender ("Érable Inc.", "A&W", "L'Oréal"): letters and digits of
// any script, spaces between words, and & ' - . where a dot ends a word (no "bit.ly", no
// "shop.example"); at least one letter. A verification's app_name is one: it goes into a text
// that is sent without the recipient's consent, so it must not carry a message or a link.
bool isBrandName(std::string_view name);

}  // namespace smsgw
