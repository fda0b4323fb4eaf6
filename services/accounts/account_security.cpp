#include "services/accounts/account_security.h"

#include <soci/soci.h>

#include "db/json_rows.h"
#include "domain/crypto.h"
#include "domain/errors.h"
#include "domain/owner_emails.h"
#include "services/accounts/dashboard_sessions.h"
#include "services/accounts/owner_links.h"
#include "services/accounts/owner_mail.h"
#include "services/accounts/password_guard.h"
#include "services/accounts/trusted_browsers.h"

namespace smsgw::accounts {
namespace {

struct Owner {
  std::string id;
  std::string email;
};

std::optional<Owner> ownerByEmail(soci::session& sql, const std::string& email) {
  Owner owner;
  sql << "SELECT id, email FROM accounts WHERE lower(email) = lower(:email)", soci::use(email),
      soci::into(owner.id), soci::into(owner.email);
  if (!sql.got_data()) return std::nullopt;
  return owner;
}

// Holds the account for the transaction: one sign-in change at a time, and the links' pace
// read and written under it.
Owner lockedOwner(soci::session& sql, const std::string& account_id) {
  Owner owner{account_id, ""};
  sql << "SELECT email FROM accounts WHERE id = :id FOR UPDATE", soci::use(account_id),
      soci::into(owner.email);
  if (!sql.got_data()) throw ApiError(ErrorCode::NOT_FOUND);
  return owner;
}

// What changes how the owner signs in is the owner's: not a connected app's (it would outlive
// the grant), nor a TEST key's (it changes live data).
void requireOwnerCaller(const Caller& caller) {
  if (caller.oauth_grant_id)
    throw ApiError(ErrorCode::FORBIDDEN, {{"reason", "oauth_token_cannot_manage_sign_in"}});
  if (!caller.live() && !caller.dashboard_session) throw ApiError(ErrorCode::LIVE_KEY_REQUIRED);
}

void requirePassword(db::Database& db, const Caller& caller, const std::string& password,
                     const char* field, TimePoint now) {
  if (!isAccountPassword(db, caller, password, now))
    throw validationError(field, "is not the account's password");
}

// `hash`: crypto::hashPassword's, made before the transaction (it is slow on purpose).
void setPasswordHash(soci::session& sql, const std::string& account_id, const std::string& hash) {
  sql << "UPDATE accounts SET password_hash = :hash WHERE id = :id", soci::use(hash),
      soci::use(account_id);
}

// A link of `purpose` to the owner of `email`, unless one went out in the last five minutes.
void emailLink(db::Database& db, const OwnerMail& mail, const std::string& email,
               LinkPurpose purpose, std::chrono::seconds life, const char* page,
               EmailText (*text)(std::string_view), TimePoint now) {
  std::vector<std::string> owed;
  {
    db::Session sql(db);
    soci::transaction tx(*sql);
    auto found = ownerByEmail(*sql, email);
    if (!found) return;
    Owner owner = lockedOwner(*sql, found->id);
    if (linkIssuedSince(*sql, owner.id, purpose, now - kOwnerLinkInterval)) return;
    IssuedLink link = issueLink(*sql, owner.id, purpose, life, now);
    owed.push_back(queueOwnerEmail(*sql, owner.id, owner.email,
                                   text(ownerLink(mail.public_base_url, page, link.token)), now));
    tx.commit();
  }
  sendOwedEmails(db, mail.mailer, owed, now);
}

std::string redeemed(soci::session& sql, LinkPurpose purpose, const std::string& token,
                     TimePoint now, std::optional<std::string>* new_email = nullptr) {
  auto link = redeemLink(sql, purpose, token, now);
  if (!link) throw ApiError(ErrorCode::LINK_EXPIRED);
  if (new_email) *new_email = link->new_email;
  return link->account_id;
}

}  // namespace

void changePassword(db::Database& db, const OwnerMail& mail, const Caller& caller,
                    const std::string& current_password, const std::string& new_password,
                    TimePoint now) {
  requireOwnerCaller(caller);
  requirePassword(db, caller, current_password, "current_password", now);
  std::string hash = crypto::hashPassword(new_password);
  std::vector<std::string> owed;
  {
    db::Session sql(db);
    soci::transaction tx(*sql);
    Owner owner = lockedOwner(*sql, caller.account_id);
    setPasswordHash(*sql, owner.id, hash);
    endSessionsOf(*sql, owner.id, sessionOfKey(*sql, caller.key_id), "password_changed", now);
    owed.push_back(queueOwnerEmail(*sql, owner.id, owner.email, passwordChangedEmail(), now));
    tx.commit();
  }
  sendOwedEmails(db, mail.mailer, owed, now);
}

void requestPasswordReset(db::Database& db, const OwnerMail& mail, const std::string& email,
                          TimePoint now) {
  emailLink(db, mail, email, LinkPurpose::PasswordReset, kPasswordResetLinkLife, "reset",
            passwordResetEmail, now);
}

std::string completePasswordReset(db::Database& db, const OwnerMail& mail, const std::string& token,
                                  const std::string& new_password, TimePoint now) {
  std::string hash = crypto::hashPassword(new_password);  // slow: before any lock is held
  std::vector<std::string> owed;
  std::string browser_token;
  {
    db::Session sql(db);
    soci::transaction tx(*sql);
    Owner owner = lockedOwner(*sql, redeemed(*sql, LinkPurpose::PasswordReset, token, now));
    setPasswordHash(*sql, owner.id, hash);
    endSessionsOf(*sql, owner.id, std::nullopt, "password_reset", now);
    forgetBrowsers(*sql, owner.id, now);
    browser_token = trustBrowser(*sql, owner.id, now);  // the link proved this one
    owed.push_back(queueOwnerEmail(*sql, owner.id, owner.email, passwordChangedEmail(), now));
    tx.commit();
  }
  sendOwedEmails(db, mail.mailer, owed, now);
  return browser_token;
}

void requestUnlock(db::Database& db, const OwnerMail& mail, const std::string& email,
                   TimePoint now) {
  emailLink(db, mail, email, LinkPurpose::Unlock, kUnlockLinkLife, "unlock", unlockEmail, now);
}

std::string confirmUnlock(db::Database& db, const std::string& token, TimePoint now) {
  db::Session sql(db);
  soci::transaction tx(*sql);
  std::string account_id = redeemed(*sql, LinkPurpose::Unlock, token, now);
  std::string browser_token = trustBrowser(*sql, account_id, now);
  tx.commit();
  return browser_token;
}

nlohmann::json requestEmailChange(db::Database& db, const OwnerMail& mail, const Caller& caller,
                                  const std::string& new_email, const std::string& password,
                                  TimePoint now) {
  requireOwnerCaller(caller);
  requirePassword(db, caller, password, "password", now);
  std::vector<std::string> owed;
  IssuedLink link;
  {
    db::Session sql(db);
    soci::transaction tx(*sql);
    Owner owner = lockedOwner(*sql, caller.account_id);
    if (auto taken = ownerByEmail(*sql, new_email))
      throw ApiError(ErrorCode::CONFLICT, {{"field", "email"}, {"reason", "email_taken"}});
    if (linkIssuedSince(*sql, owner.id, LinkPurpose::EmailChange, now - kOwnerLinkInterval)) {
      auto wait = std::chrono::duration_cast<std::chrono::seconds>(kOwnerLinkInterval).count();
      throw ApiError(ErrorCode::RATE_LIMITED, {{"reason", "email_change_recently_asked"}},
                     static_cast<int>(wait));
    }
    link =
        issueLink(*sql, owner.id, LinkPurpose::EmailChange, kEmailChangeLinkLife, now, new_email);
    owed.push_back(queueOwnerEmail(
        *sql, owner.id, new_email,
        emailChangeProofEmail(new_email, ownerLink(mail.public_base_url, "email", link.token)),
        now));
    owed.push_back(
        queueOwnerEmail(*sql, owner.id, owner.email, emailChangeAskedEmail(new_email), now));
    tx.commit();
  }
  sendOwedEmails(db, mail.mailer, owed, now);
  return {{"pending_email", new_email}, {"expires_at", formatIso(link.expires_at)}};
}

nlohmann::json confirmEmailChange(db::Database& db, const OwnerMail& mail, const std::string& token,
                                  TimePoint now) {
  std::vector<std::string> owed;
  std::optional<nlohmann::json> account;
  {
    db::Session sql(db);
    soci::transaction tx(*sql);
    std::optional<std::string> new_email;
    Owner owner =
        lockedOwner(*sql, redeemed(*sql, LinkPurpose::EmailChange, token, now, &new_email));
    auto taken = ownerByEmail(*sql, *new_email);
    if (taken && taken->id != owner.id)
      throw ApiError(ErrorCode::CONFLICT, {{"field", "email"}, {"reason", "email_taken"}});
    std::string at = formatIso(now);
    *sql << "UPDATE accounts SET email = :email, email_verified_at = :now::timestamptz WHERE "
            "id = :id",
        soci::use(*new_email), soci::use(at), soci::use(owner.id);
    owed.push_back(
        queueOwnerEmail(*sql, owner.id, owner.email, emailChangedEmail(*new_email), now));
    account = db::queryJson(*sql, "SELECT api_account(a)::text FROM accounts a WHERE a.id = :id",
                            owner.id);
    tx.commit();
  }
  sendOwedEmails(db, mail.mailer, owed, now);
  return {{"account", *account}};
}

}  // namespace smsgw::accounts
