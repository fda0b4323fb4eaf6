#pragma once
// Telnyx's own opt-out handling, as its messaging guides describe it: a subscriber who texts a
// stop word alone ("STOP", "stop all", ...) to a number gets Telnyx's English reply, and a block
// rule refuses every later send to them (error 40300) from any number of the same messaging
// profile, or of the whole account: Telnyx's developer guide says "Block rules operate at the
// messaging profile level", its support article says "Opt outs default at the account level".
// START or UNSTOP, texted to the same number, lifts the rule. The gateway asks the operator to
// have this handling turned off (docs/carrier.md, going live); the simulator keeps it so that
// the harm of leaving it on, and the gateway's reading of 40300, can be tested.
// Not thread-safe: SimState holds it under its mutex.

#include <optional>
#include <string>
#include <vector>

namespace smsgw::sim {

enum class OptOutHandling { Off, Profile, Account };
std::optional<OptOutHandling> parseOptOutHandling(const std::string& text);  // off|profile|account

enum class TelnyxKeyword { None, OptOut, OptIn };
// Telnyx's default keywords, recognised only as the whole message, case and spaces aside.
TelnyxKeyword telnyxKeyword(const std::string& text);

inline constexpr const char* kTelnyxOptOutReply =
    "You have successfully been unsubscribed, you will not receive any more messages from this "
    "number. Reply START to resubscribe.";
inline constexpr const char* kTelnyxOptInReply =
    "You have successfully been re-subscribed to messages from this number. Reply HELP for "
    "help. Reply STOP to unsubscribe. Msg&Data Rates May Apply.";

class BlockRules {
 public:
  // `text` from `subscriber` to `number` (of messaging profile `profile`): Telnyx's automatic
  // reply when it is a keyword Telnyx acts on (the rule made or lifted), nothing otherwise.
  std::optional<std::string> onInbound(OptOutHandling handling, const std::string& subscriber,
                                       const std::string& number, const std::string& profile,
                                       const std::string& text);
  // Whether a send to `subscriber` from a number of `profile` meets a block rule.
  bool blocks(const std::string& subscriber, const std::string& profile) const;

 private:
  struct Rule {
    std::string subscriber;
    std::string number;   // the number texted: only an opt-in to it lifts the rule
    std::string profile;  // empty: the whole account
  };
  std::vector<Rule> rules_;
};

}  // namespace smsgw::sim
