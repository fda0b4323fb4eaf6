#include "services/compliance/records.h"

#include <soci/soci.h>

#include <nlohmann/json.hpp>

#include "domain/ids.h"

namespace smsgw::compliance {
namespace {

// An optional text as SOCI binds it. SOCI runs a statement after the expression's other
// temporaries are gone, so every bound value must be a named object like this one.
struct NullableText {
  explicit NullableText(const std::optional<std::string>& value)
      : text(value.value_or("")), indicator(value ? soci::i_ok : soci::i_null) {}
  std::string text;
  soci::indicator indicator;
};

nlohmann::json textOrNull(const std::optional<std::string>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

// Drafts travel to PostgreSQL as one JSON array, read back by kDrafts: a batch of ten thousand
// is one statement, not ten thousand (each row's own statements took over 30 s under ASan).
nlohmann::json draftsJson(const std::vector<ConsentDraft>& drafts, std::vector<std::string>& ids) {
  nlohmann::json rows = nlohmann::json::array();
  for (const ConsentDraft& draft : drafts) {
    ids.push_back(newId("cns"));
    rows.push_back({{"id", ids.back()},
                    {"phone_number", draft.phone_number},
                    {"consent_type", draft.consent_type},
                    {"source_description", textOrNull(draft.source_description)},
                    {"source_ip", textOrNull(draft.source_ip)},
                    {"source_url", textOrNull(draft.source_url)},
                    {"relationship_type", textOrNull(draft.relationship_type)},
                    {"last_transaction_date", textOrNull(draft.last_transaction_date)},
                    {"expires_at", draft.expires_at ? nlohmann::json(formatIso(*draft.expires_at))
                                                    : nlohmann::json(nullptr)}});
  }
  return rows;
}

// The owner binds once: :a, :m, :b, then the drafts.
constexpr const char* kOwnerAndDrafts =
    "WITH owner AS (SELECT :a::text AS account_id, :m::text AS mode, :b::text AS batch_id), "
    "d AS (SELECT * FROM jsonb_to_recordset(:drafts::jsonb) AS d(id text, phone_number text, "
    "consent_type text, source_description text, source_ip text, source_url text, "
    "relationship_type text, last_transaction_date text, expires_at timestamptz)) ";
constexpr const char* kInsertDrafts =
    "INSERT INTO consents (id, account_id, mode, channel, phone_number, consent_type, "
    "source_description, source_ip, source_url, relationship_type, last_transaction_date, "
    "expires_at, consent_batch_id) "
    "SELECT d.id, owner.account_id, owner.mode, 'SMS', d.phone_number, d.consent_type, "
    "d.source_description, d.source_ip, d.source_url, d.relationship_type, "
    "d.last_transaction_date, d.expires_at, owner.batch_id FROM owner, ";

}  // namespace

std::string recordConsent(soci::session& sql, const std::string& account_id,
                          const std::string& mode, const ConsentDraft& draft,
                          const std::optional<std::string>& batch_id) {
  std::vector<std::string> ids;
  std::string drafts = draftsJson({draft}, ids).dump();
  NullableText batch(batch_id);
  sql << std::string(kOwnerAndDrafts) + kInsertDrafts + "d", soci::use(account_id), soci::use(mode),
      soci::use(batch.text, batch.indicator), soci::use(drafts);
  return ids.front();
}

ConsentTally recordNewConsents(soci::session& sql, const std::string& account_id,
                               const std::string& mode, const std::vector<ConsentDraft>& drafts,
                               const std::string& batch_id) {
  std::vector<std::string> ids;
  std::string rows = draftsJson(drafts, ids).dump();
  ConsentTally tally;
  // One snapshot judges every draft: the drafts name distinct numbers, so none of them sees
  // another's insert.
  sql << std::string(kOwnerAndDrafts) +
             ", standing AS (SELECT d.*, EXISTS (SELECT 1 FROM opt_outs o, owner WHERE "
             "o.account_id = owner.account_id AND o.mode = owner.mode AND "
             "o.phone_number = d.phone_number AND o.reinstated_at IS NULL) AS opted_out, "
             "EXISTS (SELECT 1 FROM consents c, owner WHERE c.account_id = owner.account_id "
             "AND c.mode = owner.mode AND c.phone_number = d.phone_number AND "
             "c.status = 'ACTIVE' AND c.consent_type = d.consent_type) AS recorded FROM d), "
             "inserted AS (" +
             kInsertDrafts +
             "standing d WHERE NOT d.opted_out AND NOT d.recorded RETURNING consent_type) "
             "SELECT (SELECT count(*) FROM standing WHERE opted_out)::int, "
             "(SELECT count(*) FROM standing WHERE recorded AND NOT opted_out)::int, "
             "(SELECT count(*) FROM inserted WHERE consent_type = 'EXPRESS')::int, "
             "(SELECT count(*) FROM inserted WHERE consent_type = 'IMPLIED')::int",
      soci::use(account_id), soci::use(mode), soci::use(batch_id), soci::use(rows),
      soci::into(tally.opted_out), soci::into(tally.already_recorded), soci::into(tally.express),
      soci::into(tally.implied);
  return tally;
}

int revokeConsents(soci::session& sql, const std::string& account_id, const std::string& mode,
                   const std::string& phone_number, const std::string& reason, TimePoint now) {
  int revoked = 0;
  std::string at = formatIso(now);
  sql << "WITH revoked AS (UPDATE consents SET status = 'REVOKED', "
         "revoked_at = :now::timestamptz, revoked_reason = :reason "
         "WHERE account_id = :account AND mode = :mode AND phone_number = :phone "
         "AND status = 'ACTIVE' RETURNING 1) SELECT count(*) FROM revoked",
      soci::use(at, "now"), soci::use(reason, "reason"), soci::use(account_id, "account"),
      soci::use(mode, "mode"), soci::use(phone_number, "phone"), soci::into(revoked);
  return revoked;
}

bool recordOptOut(soci::session& sql, const OptOutDraft& draft, TimePoint now) {
  std::string id = newId("opt");
  std::string at = formatIso(now);
  NullableText keyword(draft.keyword), message(draft.inbound_message_id);
  std::string recorded;
  sql << "INSERT INTO opt_outs (id, account_id, mode, phone_number, from_number, keyword_used, "
         "inbound_message_id, opted_out_at) VALUES (:id, :account, :mode, :phone, :from, "
         ":keyword, :message, :now::timestamptz) "
         "ON CONFLICT (account_id, mode, phone_number, from_number) WHERE reinstated_at IS NULL "
         "DO NOTHING RETURNING id",
      soci::use(id, "id"), soci::use(draft.account_id, "account"), soci::use(draft.mode, "mode"),
      soci::use(draft.phone_number, "phone"), soci::use(draft.from_number, "from"),
      soci::use(keyword.text, keyword.indicator, "keyword"),
      soci::use(message.text, message.indicator, "message"), soci::use(at, "now"),
      soci::into(recorded);
  return sql.got_data();
}

bool reinstateOptOut(soci::session& sql, const OptOutDraft& draft, TimePoint now) {
  NullableText keyword(draft.keyword), message(draft.inbound_message_id);
  std::string at = formatIso(now);
  std::string reinstated;
  sql << "UPDATE opt_outs SET reinstated_at = :now::timestamptz, reinstate_keyword = :keyword, "
         "reinstate_message_id = :message WHERE account_id = :account AND mode = :mode "
         "AND phone_number = :phone AND from_number = :from AND reinstated_at IS NULL RETURNING id",
      soci::use(at, "now"), soci::use(keyword.text, keyword.indicator, "keyword"),
      soci::use(message.text, message.indicator, "message"), soci::use(draft.account_id, "account"),
      soci::use(draft.mode, "mode"), soci::use(draft.phone_number, "phone"),
      soci::use(draft.from_number, "from"), soci::into(reinstated);
  return sql.got_data();
}

}  // namespace smsgw::compliance
