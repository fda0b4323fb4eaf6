#include "services/webhooks/account_event_emails.h"

#include <soci/soci.h>

namespace smsgw::webhooks {

bool emailAccountEvent(soci::session& sql, Mailer& mailer, const topics::EventRecord& event) {
  if (event.type.rfind("account.", 0) != 0) return false;
  soci::transaction tx(sql);
  std::string email, name;
  sql << "INSERT INTO owner_event_emails (event_id) SELECT :event::uuid WHERE EXISTS (SELECT 1 "
         "FROM accounts WHERE id = :account) ON CONFLICT DO NOTHING RETURNING (SELECT email FROM "
         "accounts WHERE id = :account), (SELECT name FROM accounts WHERE id = :account)",
      soci::use(event.id, "event"), soci::use(event.account_id, "account"), soci::into(email),
      soci::into(name);
  if (!sql.got_data()) return false;  // sent already
  // Sent before the commit: a crash in between sends it again rather than never.
  mailer.send({email, "[SMS gateway] " + event.type + " for " + name,
               "Account " + event.account_id + ": " + event.type + "\n" + event.data.dump(2)});
  tx.commit();
  return true;
}

}  // namespace smsgw::webhooks
