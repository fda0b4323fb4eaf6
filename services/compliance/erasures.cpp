#include "services/compliance/erasures.h"

#include <soci/soci.h>

#include "db/json_rows.h"
#include "domain/crypto.h"
#include "domain/errors.h"
#include "domain/ids.h"
#include "services/messaging/erased_recipient.h"

namespace smsgw::compliance {
namespace {

// The subscriber's data within one account, and the token that replaces the number.
struct Subject {
  std::string account;
  std::string phone;
  std::string token;
};

// Runs a data-changing statement whose placeholders are, in order, :account, :phone, :token,
// and returns how many rows it changed.
int changed(soci::session& sql, const std::string& statement, const Subject& subject) {
  int n = 0;
  sql << "WITH changed AS (" + statement + " RETURNING 1) SELECT count(*) FROM changed",
      soci::use(subject.account, "account"), soci::use(subject.phone, "phone"),
      soci::use(subject.token, "token"), soci::into(n);
  return n;
}

}  // namespace

nlohmann::json eraseSubscriber(db::Database& db, const std::string& account,
                               const std::string& phone, TimePoint now) {
  std::string digest = crypto::sha256Hex(phone);
  std::string token = "erased:" + digest.substr(0, 16);

  db::Session sql(db);
  soci::transaction tx(*sql);
  int own = 0;
  *sql << "SELECT count(*) FROM accounts a WHERE a.id = :a AND (a.verified_phone = :p OR EXISTS "
          "(SELECT 1 FROM phone_numbers n WHERE n.account_id = a.id AND n.phone_number = :p2 "
          "AND n.status <> 'RELEASED'))",
      soci::use(account), soci::use(phone), soci::use(phone), soci::into(own);
  if (own) throw ApiError(ErrorCode::CANNOT_ERASE_OWN_NUMBER);

  Subject subject{account, phone, token};
  nlohmann::json counts;
  // First, before the number turns into the token: what has not left is not sent to no one.
  counts["messages_cancelled"] =
      messaging::cancelSendsToErasedNumber(*sql, account, phone, token, now);
  counts["messages_anonymized"] =
      changed(*sql,
              "UPDATE messages SET body = NULL, body_purged = true, "
              "to_number = CASE WHEN to_number = :phone THEN :token ELSE to_number END, "
              "from_number = CASE WHEN from_number = :phone THEN :token ELSE from_number END "
              "WHERE account_id = :account AND (to_number = :phone OR from_number = :phone)",
              subject);
  counts["events_anonymized"] =
      changed(*sql,
              "UPDATE events SET data = (SELECT jsonb_object_agg(key, CASE WHEN value = "
              "to_jsonb(:phone::text) THEN to_jsonb(:token::text) ELSE value END) "
              "FROM jsonb_each(data - 'body')) WHERE account_id = :account AND "
              "(data->>'to' = :phone OR data->>'from' = :phone OR data->>'phone_number' = :phone)",
              subject);
  counts["opt_in_confirmations_anonymized"] =
      changed(*sql,
              "UPDATE opt_in_confirmations SET to_number = :token, status = CASE WHEN status = "
              "'PENDING' THEN 'EXPIRED' ELSE status END "
              "WHERE account_id = :account AND to_number = :phone",
              subject);
  counts["consents_deleted"] = changed(
      *sql, "DELETE FROM consents WHERE account_id = :account AND phone_number = :phone", subject);
  // The address book: the contact holding the number goes (its name, email and notes with it).
  // Every allow/deny list that reached the number through it, or through a group it was in,
  // gets the number as an entry of its own first, so no key's fence moves: like the opt-out,
  // what a key may not text stays refused.
  changed(*sql,
          "INSERT INTO contact_list_entries (id, list_id, phone_number) SELECT 'cle_' || "
          "replace(gen_random_uuid()::text, '-', ''), l.id, :phone FROM contact_lists l WHERE "
          "l.account_id = :account AND list_holds(l.id, :account, :phone) ON CONFLICT DO "
          "NOTHING",
          subject);
  counts["contacts_deleted"] = changed(
      *sql, "DELETE FROM contacts WHERE account_id = :account AND phone_number = :phone", subject);
  counts["broadcast_answers_anonymized"] =
      changed(*sql,
              "UPDATE broadcasts SET response = replace(response::text, to_jsonb(:phone::text)"
              "::text, to_jsonb(:token::text)::text)::jsonb WHERE account_id = :account AND "
              "strpos(response::text, to_jsonb(:phone::text)::text) > 0",
              subject);
  changed(*sql,
          "UPDATE broadcast_recipients r SET to_number = :token FROM broadcasts b WHERE "
          "b.id = r.broadcast_id AND b.account_id = :account AND r.to_number = :phone",
          subject);
  counts["verifications_anonymized"] = changed(
      *sql,
      "UPDATE verifications SET phone_number = :token, sealed_code = NULL WHERE account_id = "
      ":account AND phone_number = :phone",
      subject);
  *sql << "DELETE FROM outbox o USING outbox_published p WHERE (o.txid, o.id) = (p.txid, p.id) "
          "AND p.record_key = :a AND strpos(p.payload, :p) > 0",
      soci::use(account), soci::use(phone);
  int opt_outs = 0;
  *sql << "SELECT count(*) FROM opt_outs WHERE account_id = :a AND phone_number = :p",
      soci::use(account), soci::use(phone), soci::into(opt_outs);
  counts["opt_outs_kept"] = opt_outs;
  int list_entries = 0;
  *sql << "SELECT count(*) FROM contact_list_entries e JOIN contact_lists l ON l.id = e.list_id "
          "WHERE l.account_id = :a AND e.phone_number = :p",
      soci::use(account), soci::use(phone), soci::into(list_entries);
  counts["list_entries_kept"] = list_entries;

  std::string id = newId("ers"), counts_text = counts.dump();
  *sql << "INSERT INTO erasures (id, account_id, phone_number_sha256, counts) "
          "VALUES (:id, :a, :h, :c::jsonb)",
      soci::use(id), soci::use(account), soci::use(digest), soci::use(counts_text);
  auto erasure = db::queryJson(*sql,
                               "SELECT jsonb_build_object('id', e.id, 'phone_number_sha256', "
                               "e.phone_number_sha256, 'counts', e.counts, 'created_at', "
                               "iso_ts(e.created_at))::text FROM erasures e WHERE e.id = :id",
                               id);
  tx.commit();
  return *erasure;
}

}  // namespace smsgw::compliance
