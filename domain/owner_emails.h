#pragma once
// The emails an account's owner gets about signing in (issue 49): links that prove the owner (a
// password reset, an unlock, a new address's proof) and notices of what changed. Each is in
// English and then French, as the dashboard is. Pure.

#include <chrono>
#include <string>
#include <string_view>

namespace smsgw {

struct EmailText {
  std::string subject;
  std::string body;
};

// How long each link serves, once.
inline constexpr std::chrono::minutes kPasswordResetLinkLife{30};
inline constexpr std::chrono::minutes kUnlockLinkLife{60};
inline constexpr std::chrono::hours kEmailChangeLinkLife{24};
// At most one link of a kind per account in this time: asking again sends nothing more.
inline constexpr std::chrono::minutes kOwnerLinkInterval{5};

// The dashboard page a link opens: "{base}/dashboard/#/{page}/{token}" (the token stays in the
// fragment, which no server and no Referer sees).
std::string ownerLink(std::string_view public_base_url, std::string_view page,
                      std::string_view token);

EmailText passwordResetEmail(std::string_view link);
EmailText unlockEmail(std::string_view link);
// To the new address: the link that proves it.
EmailText emailChangeProofEmail(std::string_view new_email, std::string_view link);
// To the old address, when a change is asked and when it is made.
EmailText emailChangeAskedEmail(std::string_view new_email);
EmailText emailChangedEmail(std::string_view new_email);
EmailText passwordChangedEmail();

}  // namespace smsgw
