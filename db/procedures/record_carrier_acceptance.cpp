#include "db/procedures/record_carrier_acceptance.h"

#include <soci/soci.h>

namespace smsgw::db {

const Procedure kRecordCarrierAcceptance{"record_carrier_acceptance",
                                         {{"p_id", "text"},
                                          {"p_carrier_message_id", "text"},
                                          {"p_parts", "integer"},
                                          {"p_adjustment_cents", "bigint"},
                                          {"p_charge_reference", "text"},
                                          {"p_adjustment_description", "text"},
                                          {"p_event_id", "uuid"},
                                          {"p_event_record", "jsonb"},
                                          {"p_events_topic", "text"},
                                          {"p_now", "timestamp with time zone"},
                                          {"p_request_id", "text"}},
                                         "TABLE(cost_cents bigint, receipt_held boolean)"};

std::optional<AcceptanceRecorded> recordCarrierAcceptance(soci::session& sql,
                                                          const CarrierAcceptance& acceptance) {
  std::string at = formatIso(acceptance.now);
  soci::indicator request_ind = acceptance.request_id.empty() ? soci::i_null : soci::i_ok;
  AcceptanceRecorded recorded;
  int receipt_held = 0;
  sql << kRecordCarrierAcceptance.callText("cost_cents, receipt_held::int"),
      soci::use(acceptance.message_id, "p_id"),
      soci::use(acceptance.carrier_message_id, "p_carrier_message_id"),
      soci::use(acceptance.parts, "p_parts"),
      soci::use(acceptance.adjustment_cents, "p_adjustment_cents"),
      soci::use(acceptance.charge_reference, "p_charge_reference"),
      soci::use(acceptance.adjustment_description, "p_adjustment_description"),
      soci::use(acceptance.event_id, "p_event_id"),
      soci::use(acceptance.event_record, "p_event_record"),
      soci::use(acceptance.events_topic, "p_events_topic"), soci::use(at, "p_now"),
      soci::use(acceptance.request_id, request_ind, "p_request_id"),
      soci::into(recorded.cost_cents), soci::into(receipt_held);
  if (!sql.got_data()) return std::nullopt;
  recorded.receipt_held = receipt_held != 0;
  return recorded;
}

}  // namespace smsgw::db
