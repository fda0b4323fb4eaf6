#pragma once
// What receiving a text decides, apart from what it reads and writes
// (inbound_texts.cpp): whether a text counts against the account's inbound cap, and what its
// keyword comes to. Pure; unit-tested in tests/unit/inbound_decision_test.cpp.

#include <optional>
#include <string>

#include "domain/casl.h"

namespace smsgw::compliance {

// Over the account's daily inbound cap (0: none) a text is stored without content, uncharged
// and not announced; STOP, START and HELP always work.
bool isCapped(Keyword keyword, int daily_cap, int received_in_window);

// What a keyword's effect came to: `took_effect` is whether STOP recorded a new opt-out, or
// START reinstated one (for HELP, YES and none it does not matter).
struct KeywordOutcome {
  std::string action = "ignored";                 // message.received's keyword_action
  std::optional<std::string> event_type;          // opt_out.recorded or opt_out.reinstated
  std::optional<std::string> auto_reply_keyword;  // STOP, START or HELP: the platform replies
  bool reviews_opt_out_rate = false;              // an opt-out may pause the account's sending
};
KeywordOutcome keywordOutcome(Keyword keyword, bool took_effect);

}  // namespace smsgw::compliance
