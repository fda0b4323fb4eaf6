#include "services/compliance/records.h"

#include <soci/soci.h>

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

}  // namespace

std::string recordConsent(soci::session& sql, const std::string& account_id,
                          const std::string& mode, const ConsentDraft& draft,
                          const std::optional<std::string>& batch_id) {
  std::string id = newId("cns");
  NullableText source_description(draft.source_description), source_ip(draft.source_ip),
      source_url(draft.source_url), relationship_type(draft.relationship_type),
      last_transaction_date(draft.last_transaction_date), batch(batch_id),
      expires_at(draft.expires_at ? std::optional(formatIso(*draft.expires_at)) : std::nullopt);
  sql << "INSERT INTO consents (id, account_id, mode, channel, phone_number, consent_type, "
         "source_description, source_ip, source_url, relationship_type, last_transaction_date, "
         "expires_at, consent_batch_id) VALUES (:id, :a, :m, 'SMS', :p, :t, :sd, :si, :su, :rt, "
         ":ltd, :exp::timestamptz, :b)",
      soci::use(id), soci::use(account_id), soci::use(mode), soci::use(draft.phone_number),
      soci::use(draft.consent_type),
      soci::use(source_description.text, source_description.indicator),
      soci::use(source_ip.text, source_ip.indicator),
      soci::use(source_url.text, source_url.indicator),
      soci::use(relationship_type.text, relationship_type.indicator),
      soci::use(last_transaction_date.text, last_transaction_date.indicator),
      soci::use(expires_at.text, expires_at.indicator), soci::use(batch.text, batch.indicator);
  return id;
}

int revokeConsents(soci::session& sql, const std::string& account_id, const std::string& mode,
                   const std::string& phone_number, const std::string& reason) {
  int revoked = 0;
  sql << "WITH revoked AS (UPDATE consents SET status = 'REVOKED', revoked_at = now(), "
         "revoked_reason = :r WHERE account_id = :a AND mode = :m AND phone_number = :p "
         "AND status = 'ACTIVE' RETURNING 1) SELECT count(*) FROM revoked",
      soci::use(reason), soci::use(account_id), soci::use(mode), soci::use(phone_number),
      soci::into(revoked);
  return revoked;
}

bool recordOptOut(soci::session& sql, const OptOutDraft& draft) {
  std::string id = newId("opt");
  NullableText keyword(draft.keyword), message(draft.inbound_message_id);
  std::string recorded;
  sql << "INSERT INTO opt_outs (id, account_id, mode, phone_number, from_number, keyword_used, "
         "inbound_message_id) VALUES (:id, :a, :m, :p, :f, :k, :msg) "
         "ON CONFLICT (account_id, mode, phone_number, from_number) WHERE reinstated_at IS NULL "
         "DO NOTHING RETURNING id",
      soci::use(id), soci::use(draft.account_id), soci::use(draft.mode),
      soci::use(draft.phone_number), soci::use(draft.from_number),
      soci::use(keyword.text, keyword.indicator), soci::use(message.text, message.indicator),
      soci::into(recorded);
  return sql.got_data();
}

bool reinstateOptOut(soci::session& sql, const OptOutDraft& draft) {
  NullableText keyword(draft.keyword), message(draft.inbound_message_id);
  std::string reinstated;
  sql << "UPDATE opt_outs SET reinstated_at = now(), reinstate_keyword = :k, "
         "reinstate_message_id = :msg WHERE account_id = :a AND mode = :m AND phone_number = :p "
         "AND from_number = :f AND reinstated_at IS NULL RETURNING id",
      soci::use(keyword.text, keyword.indicator), soci::use(message.text, message.indicator),
      soci::use(draft.account_id), soci::use(draft.mode), soci::use(draft.phone_number),
      soci::use(draft.from_number), soci::into(reinstated);
  return sql.got_data();
}

}  // namespace smsgw::compliance
