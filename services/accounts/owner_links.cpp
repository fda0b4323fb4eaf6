#include "services/accounts/owner_links.h"

#include <soci/soci.h>

#include "domain/crypto.h"
#include "domain/ids.h"

namespace smsgw::accounts {
namespace {

constexpr size_t kTokenCharacters = 43;  // base62: about 256 bits

std::string purposeText(LinkPurpose purpose) {
  switch (purpose) {
    case LinkPurpose::PasswordReset:
      return "password_reset";
    case LinkPurpose::Unlock:
      return "unlock";
    case LinkPurpose::EmailChange:
      return "email_change";
  }
  return "";
}

}  // namespace

IssuedLink issueLink(soci::session& sql, const std::string& account_id, LinkPurpose purpose,
                     std::chrono::seconds life, TimePoint now,
                     const std::optional<std::string>& new_email) {
  IssuedLink link{randomBase62(kTokenCharacters), now + life};
  std::string id = newId("lnk", now), hash = crypto::sha256Hex(link.token);
  std::string kind = purposeText(purpose), at = formatIso(now), until = formatIso(link.expires_at);
  std::string email = new_email.value_or("");
  soci::indicator email_ind = new_email ? soci::i_ok : soci::i_null;
  sql << "INSERT INTO owner_links (id, account_id, purpose, token_hash, new_email, created_at, "
         "expires_at) VALUES (:id, :account, :purpose, :hash, :email, :now::timestamptz, "
         ":until::timestamptz)",
      soci::use(id), soci::use(account_id), soci::use(kind), soci::use(hash),
      soci::use(email, email_ind), soci::use(at), soci::use(until);
  return link;
}

bool linkIssuedSince(soci::session& sql, const std::string& account_id, LinkPurpose purpose,
                     TimePoint since) {
  int issued = 0;
  std::string kind = purposeText(purpose), after = formatIso(since);
  sql << "SELECT count(*) FROM owner_links WHERE account_id = :account AND purpose = :purpose "
         "AND created_at > :since::timestamptz",
      soci::use(account_id), soci::use(kind), soci::use(after), soci::into(issued);
  return issued > 0;
}

std::optional<RedeemedLink> redeemLink(soci::session& sql, LinkPurpose purpose,
                                       const std::string& token, TimePoint now) {
  RedeemedLink link;
  std::string email;
  soci::indicator email_ind = soci::i_null;
  std::string hash = crypto::sha256Hex(token), kind = purposeText(purpose), at = formatIso(now);
  sql << "UPDATE owner_links SET used_at = :now::timestamptz WHERE token_hash = :hash AND "
         "purpose = :purpose AND used_at IS NULL AND expires_at > :now2::timestamptz "
         "RETURNING account_id, new_email",
      soci::use(at), soci::use(hash), soci::use(kind), soci::use(at), soci::into(link.account_id),
      soci::into(email, email_ind);
  if (!sql.got_data()) return std::nullopt;
  if (email_ind == soci::i_ok) link.new_email = email;
  return link;
}

}  // namespace smsgw::accounts
