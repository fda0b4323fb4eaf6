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

// The automatic confirmation to STOP, START or HELP, signed with the account's name, in French
// for ARRET and AIDE. Empty for other keywords (they get no automatic reply).
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
