#pragma once
// Single-use links emailed to an account's owner (domain/owner_emails.h): a password reset, an
// unlock, a new email's proof. The token (43 random base62 characters, about 256 bits) is in the
// link only; what is stored is its SHA-256. A link serves once, until it expires.

#include <soci/session.h>

#include <chrono>
#include <optional>
#include <string>

#include "domain/clock.h"

namespace smsgw::accounts {

enum class LinkPurpose { PasswordReset, Unlock, EmailChange };

struct IssuedLink {
  std::string token;
  TimePoint expires_at;
};

IssuedLink issueLink(soci::session& sql, const std::string& account_id, LinkPurpose purpose,
                     std::chrono::seconds life, TimePoint now,
                     const std::optional<std::string>& new_email = std::nullopt);

// Whether a link of this purpose was issued to the account after `since` (the links' pace).
bool linkIssuedSince(soci::session& sql, const std::string& account_id, LinkPurpose purpose,
                     TimePoint since);

struct RedeemedLink {
  std::string account_id;
  std::optional<std::string> new_email;  // EmailChange
};

// Uses the link: none when the token is no unused, unexpired link of this purpose.
std::optional<RedeemedLink> redeemLink(soci::session& sql, LinkPurpose purpose,
                                       const std::string& token, TimePoint now);

}  // namespace smsgw::accounts
