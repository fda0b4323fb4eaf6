#pragma once
// What an account's owner does about signing in (docs/dashboard.md, "Account security"):
// change the password (the old one required; every other session ends), reset a forgotten one
// by an emailed link, move the sign-in to another email (the password, and a link the new
// address must follow; the old address is told), and get past a lock of strangers' making by an
// emailed link that proves the browser (password_guard.h). A connected app's token may do none
// of it: a change it made would outlive its grant (docs/oauth.md).
//
// Links are single-use and short-lived (domain/owner_emails.h), at most one of a kind per
// account every five minutes; asking for a reset or an unlock answers alike whether or not an
// account has the email. Each function takes connections of its own: call it holding none.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "adapters/mailer.h"
#include "db/database.h"
#include "domain/caller.h"
#include "domain/clock.h"

namespace smsgw::accounts {

// Where links point: the dashboard served at this base (PUBLIC_BASE_URL).
struct OwnerMail {
  Mailer& mailer;
  std::string public_base_url;
};

// Throws ApiError VALIDATION_ERROR (current_password wrong), RATE_LIMITED (the step-up's count
// locked), FORBIDDEN (oauth_token_cannot_manage_sign_in), LIVE_KEY_REQUIRED (a TEST API key).
void changePassword(db::Database& db, const OwnerMail& mail, const Caller& caller,
                    const std::string& current_password, const std::string& new_password,
                    TimePoint now);

// Emails a reset link when an account has this email and none was sent in five minutes.
void requestPasswordReset(db::Database& db, const OwnerMail& mail, const std::string& email,
                          TimePoint now);
// Sets the new password, ends every session and every proven browser, and proves this one:
// returns its proven-browser token. Throws ApiError LINK_EXPIRED.
std::string completePasswordReset(db::Database& db, const OwnerMail& mail, const std::string& token,
                                  const std::string& new_password, TimePoint now);

// Emails an unlock link when an account has this email and none was sent in five minutes.
void requestUnlock(db::Database& db, const OwnerMail& mail, const std::string& email,
                   TimePoint now);
// Proves the browser that followed the link: returns its proven-browser token. Throws ApiError
// LINK_EXPIRED.
std::string confirmUnlock(db::Database& db, const std::string& token, TimePoint now);

// {pending_email, expires_at}: the link went to the new address, a notice to the old one.
// Throws ApiError VALIDATION_ERROR (password wrong), CONFLICT (email_taken), RATE_LIMITED (a
// change asked in the last five minutes, or the step-up's count locked), FORBIDDEN
// (oauth_token_cannot_manage_sign_in), LIVE_KEY_REQUIRED.
nlohmann::json requestEmailChange(db::Database& db, const OwnerMail& mail, const Caller& caller,
                                  const std::string& new_email, const std::string& password,
                                  TimePoint now);
// Moves the sign-in to the proven address (email_verified_at set) and tells the old one:
// {account}. Throws ApiError LINK_EXPIRED or CONFLICT (email_taken since).
nlohmann::json confirmEmailChange(db::Database& db, const OwnerMail& mail, const std::string& token,
                                  TimePoint now);

}  // namespace smsgw::accounts
