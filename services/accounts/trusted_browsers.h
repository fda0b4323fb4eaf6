#pragma once
// Browsers an account's owner proved: by the right password at sign-in, or by following an
// emailed unlock or reset link. Each holds a random token in an HttpOnly cookie
// (domain/dashboard_session.h browserCookie); only its SHA-256 is stored. The password guard
// counts such a browser's wrong passwords apart from everyone else's (password_guard.h), so a
// stranger's guesses never lock the owner out of it. Trust lasts kBrowserTrust from its last
// use, ends with a password reset, and means nothing without the password.

#include <soci/session.h>

#include <chrono>
#include <optional>
#include <string>

#include "domain/clock.h"

namespace smsgw::accounts {

inline constexpr std::chrono::hours kBrowserTrust{24 * 180};

// A new trusted browser of the account: its token, for the cookie.
std::string trustBrowser(soci::session& sql, const std::string& account_id, TimePoint now);

// The id of the trusted browser this token names, if it is the account's and still trusted.
std::optional<std::string> trustedBrowserOf(soci::session& sql, const std::string& token,
                                            const std::string& account_id, TimePoint now);

// A trusted browser used again: its trust runs kBrowserTrust from now.
void touchBrowser(soci::session& sql, const std::string& browser_id, TimePoint now);

// Ends the trust of every browser of the account (a password reset).
void forgetBrowsers(soci::session& sql, const std::string& account_id, TimePoint now);

}  // namespace smsgw::accounts
