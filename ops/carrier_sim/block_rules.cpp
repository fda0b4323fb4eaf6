#include "ops/carrier_sim/block_rules.h"

#include <algorithm>
#include <cctype>

namespace smsgw::sim {
namespace {

// Upper case with runs of spaces made one and the ends trimmed: "  Stop   all " is "STOP ALL".
std::string normalized(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (std::isspace(c)) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += static_cast<char>(std::toupper(c));
    }
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

std::optional<OptOutHandling> parseOptOutHandling(const std::string& text) {
  if (text == "off") return OptOutHandling::Off;
  if (text == "profile") return OptOutHandling::Profile;
  if (text == "account") return OptOutHandling::Account;
  return std::nullopt;
}

TelnyxKeyword telnyxKeyword(const std::string& text) {
  static const std::vector<std::string> kOptOut = {"STOP",   "STOPALL", "STOP ALL", "UNSUBSCRIBE",
                                                   "CANCEL", "END",     "QUIT"};
  static const std::vector<std::string> kOptIn = {"START", "UNSTOP"};
  std::string word = normalized(text);
  if (std::find(kOptOut.begin(), kOptOut.end(), word) != kOptOut.end())
    return TelnyxKeyword::OptOut;
  if (std::find(kOptIn.begin(), kOptIn.end(), word) != kOptIn.end()) return TelnyxKeyword::OptIn;
  return TelnyxKeyword::None;
}

std::optional<std::string> BlockRules::onInbound(OptOutHandling handling,
                                                 const std::string& subscriber,
                                                 const std::string& number,
                                                 const std::string& profile,
                                                 const std::string& text) {
  if (handling == OptOutHandling::Off) return std::nullopt;
  switch (telnyxKeyword(text)) {
    case TelnyxKeyword::OptOut:
      rules_.push_back({subscriber, number, handling == OptOutHandling::Profile ? profile : ""});
      return kTelnyxOptOutReply;
    case TelnyxKeyword::OptIn:
      std::erase_if(rules_, [&](const Rule& rule) {
        return rule.subscriber == subscriber && rule.number == number;
      });
      return kTelnyxOptInReply;
    case TelnyxKeyword::None:
      break;
  }
  return std::nullopt;
}

bool BlockRules::blocks(const std::string& subscriber, const std::string& profile) const {
  return std::any_of(rules_.begin(), rules_.end(), [&](const Rule& rule) {
    return rule.subscriber == subscriber && (rule.profile.empty() || rule.profile == profile);
  });
}

}  // namespace smsgw::sim
