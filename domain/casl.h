#pragma once
// Rules of Canada's anti-spam law (CASL) that need no storage: how a subscriber's reply is read
// (STOP, START, HELP and their French forms, by first word) and when implied consent lapses.
// Pure functions; thread-safe.

#include <optional>
#include <string>
#include <string_view>

#include "domain/clock.h"

namespace smsgw {

enum class Keyword {
  None,   // anything else: the text is an ordinary message
  Stop,   // STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, ARRET (ARRÊT)
  Start,  // START, UNSTOP
  Help,   // HELP, INFO, AIDE
  Yes,    // YES, OUI: confirms a double opt-in
};

struct KeywordReply {
  Keyword keyword = Keyword::None;
  bool french = false;      // ARRET or AIDE: the automatic reply is in French
  std::string whole_reply;  // the trimmed, uppercased whole text (opt_out.* `keyword`)
};

// Reads the first word, ignoring case, surrounding spaces and punctuation, and French accents.
KeywordReply readKeyword(std::string_view text);

// The name that signs a text we send for an account: its first 40 characters (text_cut.h).
inline constexpr size_t kSignatureCharacters = 40;

// What signs the texts sent to third parties for an account (issue 49): the sender name its
// owner set (checked as a brand when set), else the account's name when it reads as a brand
// (display_name.h's isBrandName: no link, no message, no hidden character), else nothing: an
// account name is free text, and a text sent to a stranger must not carry one.
std::string textSignature(std::string_view account_name,
                          const std::optional<std::string>& sender_name);

// The automatic confirmation to STOP, START or HELP, signed with `brand` (unsigned when it is
// empty), in French for ARRET and AIDE. Empty for other keywords (they get no automatic reply).
std::string autoReplyText(const KeywordReply& reply, std::string_view brand);

// The double opt-in request a toll-free number sends: the subscriber replies YES (OUI) to
// consent or STOP (ARRET) to refuse. `language` is en or fr.
std::string optInRequestText(std::string_view brand, std::string_view language);

// Implied consent lapses two years after the last transaction (or, without one, after it was
// granted), unless `expires_at` says otherwise. Express consent never lapses.
inline constexpr int kImpliedConsentMonths = 24;
TimePoint impliedConsentExpiry(std::optional<TimePoint> expires_at,
                               std::optional<TimePoint> last_transaction, TimePoint granted_at);

}  // namespace smsgw
