#include "db/procedures/record_carrier_acceptance.h"

#include <soci/soci.h>

#include "db/prepared_statement.h"

namespace smsgw::db {

const Procedure kRecordCarrierAcceptance{"record_carrier_acceptance",
                                         {{"p_id", "text"},
                                          {"p_status", "text"},
                                          {"p_event_type", "text"},
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
  // Prepared: one call per message the carrier accepted.
  static const PreparedStatement record(
      "record_carrier_acceptance",
      kRecordCarrierAcceptance.preparedText("cost_cents, receipt_held::int"));
  Cell request_id = nullIfEmpty(acceptance.request_id);
  std::vector<Row> rows =
      record.run(sql, kRecordCarrierAcceptance.inOrder(
                          {{"p_id", acceptance.message_id},
                           {"p_status", acceptance.status},
                           {"p_event_type", acceptance.event_type},
                           {"p_carrier_message_id", acceptance.carrier_message_id},
                           {"p_parts", std::to_string(acceptance.parts)},
                           {"p_adjustment_cents", std::to_string(acceptance.adjustment_cents)},
                           {"p_charge_reference", acceptance.charge_reference},
                           {"p_adjustment_description", acceptance.adjustment_description},
                           {"p_event_id", acceptance.event_id},
                           {"p_event_record", acceptance.event_record},
                           {"p_events_topic", acceptance.events_topic},
                           {"p_now", formatIso(acceptance.now)},
                           {"p_request_id", request_id}}));
  if (rows.empty()) return std::nullopt;
  AcceptanceRecorded recorded;
  recorded.cost_cents = integerOf(rows.front()[0]);
  recorded.receipt_held = integerOf(rows.front()[1]) != 0;
  return recorded;
}

}  // namespace smsgw::db
