#include "db/procedures/record_carrier_acceptance.h"

#include <soci/soci.h>

#include "db/prepared_statement.h"

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
  // Prepared: one call per message the carrier accepted. The arguments in the declaration's order.
  static const PreparedStatement record(
      "record_carrier_acceptance",
      kRecordCarrierAcceptance.preparedText("cost_cents, receipt_held::int"));
  Cell request_id = nullIfEmpty(acceptance.request_id);
  std::vector<Row> rows = record.run(
      sql, {acceptance.message_id, acceptance.carrier_message_id, std::to_string(acceptance.parts),
            std::to_string(acceptance.adjustment_cents), acceptance.charge_reference,
            acceptance.adjustment_description, acceptance.event_id, acceptance.event_record,
            acceptance.events_topic, formatIso(acceptance.now), request_id});
  if (rows.empty()) return std::nullopt;
  AcceptanceRecorded recorded;
  recorded.cost_cents = integerOf(rows.front()[0]);
  recorded.receipt_held = integerOf(rows.front()[1]) != 0;
  return recorded;
}

}  // namespace smsgw::db
