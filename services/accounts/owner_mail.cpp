#include "services/accounts/owner_mail.h"

#include <soci/soci.h>
#include <spdlog/spdlog.h>

#include "db/error_text.h"
#include "domain/ids.h"

namespace smsgw::accounts {
namespace {

// Claims one email: true, with what to send, when nobody had.
bool claim(soci::session& sql, const std::string& id, TimePoint now, OutgoingEmail& email) {
  std::string at = formatIso(now);
  sql << "UPDATE owner_emails o SET sent_at = :now::timestamptz, body = NULL FROM "
         "(SELECT id, body FROM owner_emails WHERE id = :id AND sent_at IS NULL FOR UPDATE) "
         "owed WHERE o.id = owed.id RETURNING o.to_address, o.subject, owed.body",
      soci::use(at), soci::use(id), soci::into(email.to), soci::into(email.subject),
      soci::into(email.body);
  return sql.got_data();
}

void sendOne(db::Database& db, Mailer& mailer, const std::string& id, TimePoint now) {
  try {
    OutgoingEmail email;
    {
      db::Session sql(db);
      if (!claim(*sql, id, now, email)) return;  // sent already
    }
    mailer.send(email);
  } catch (const std::exception& e) {
    spdlog::error("owner email {} not sent: {}", id, db::describeError(e));
  }
}

}  // namespace

std::string queueOwnerEmail(soci::session& sql, const std::string& account_id,
                            const std::string& to, const EmailText& text, TimePoint now) {
  std::string id = newId("eml", now), at = formatIso(now);
  sql << "INSERT INTO owner_emails (id, account_id, to_address, subject, body, created_at) "
         "VALUES (:id, :account, :to, :subject, :body, :now::timestamptz)",
      soci::use(id), soci::use(account_id), soci::use(to), soci::use(text.subject),
      soci::use(text.body), soci::use(at);
  return id;
}

void sendOwedEmails(db::Database& db, Mailer& mailer, const std::vector<std::string>& ids,
                    TimePoint now) {
  for (const auto& id : ids) sendOne(db, mailer, id, now);
}

int sendLeftoverEmails(db::Database& db, Mailer& mailer, TimePoint queued_before, TimePoint now) {
  std::vector<std::string> ids(100);
  {
    db::Session sql(db);
    std::string before = formatIso(queued_before);
    *sql << "SELECT id FROM owner_emails WHERE sent_at IS NULL AND created_at < "
            ":before::timestamptz ORDER BY created_at LIMIT 100",
        soci::use(before), soci::into(ids);
  }
  for (const auto& id : ids) sendOne(db, mailer, id, now);
  return static_cast<int>(ids.size());
}

}  // namespace smsgw::accounts
