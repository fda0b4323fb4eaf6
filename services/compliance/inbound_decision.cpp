#include "services/compliance/inbound_decision.h"

namespace smsgw::compliance {

bool isCapped(Keyword keyword, int daily_cap, int received_in_window) {
  bool always_works =
      keyword == Keyword::Stop || keyword == Keyword::Start || keyword == Keyword::Help;
  return daily_cap > 0 && received_in_window >= daily_cap && !always_works;
}

KeywordOutcome keywordOutcome(Keyword keyword, bool took_effect) {
  KeywordOutcome outcome;
  switch (keyword) {
    case Keyword::Stop:
      // The reply and the action stand for a repeated STOP: the subscriber asked again.
      outcome.action = "opted_out";
      outcome.auto_reply_keyword = "STOP";
      outcome.reviews_opt_out_rate = true;
      if (took_effect) outcome.event_type = "opt_out.recorded";
      break;
    case Keyword::Start:
      if (took_effect) {  // START from a number that never opted out is an ordinary text
        outcome.action = "reinstated";
        outcome.auto_reply_keyword = "START";
        outcome.event_type = "opt_out.reinstated";
      }
      break;
    case Keyword::Help:
      outcome.action = "help";
      outcome.auto_reply_keyword = "HELP";
      break;
    case Keyword::Yes:  // confirms a pending opt-in; the text itself is ordinary
    case Keyword::None:
      break;
  }
  return outcome;
}

}  // namespace smsgw::compliance
