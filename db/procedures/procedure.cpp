#include "db/procedures/procedure.h"

#include "db/ledger.h"
#include "db/procedures/accept_broadcast_batch.h"
#include "db/procedures/accept_outbound_message.h"
#include "db/procedures/apply_carrier_receipt.h"
#include "db/procedures/claim_handoff.h"
#include "db/procedures/count_carrier_failure.h"
#include "db/procedures/end_oauth_grant.h"
#include "db/procedures/raise_event.h"
#include "db/procedures/record_carrier_acceptance.h"
#include "db/procedures/take_request_slot.h"

namespace smsgw::db {

namespace {

// "SELECT <columns> FROM name(p_a => <placeholder>::type, …)", the placeholder of each argument
// and its position (from 1) given by `placeholder`.
template <typename Placeholder>
std::string callWith(const Procedure& procedure, std::string_view columns, Placeholder placeholder,
                     bool bound_types) {
  std::string text =
      "SELECT " + std::string(columns) + " FROM " + std::string(procedure.name) + "(";
  size_t number = 0;
  for (const ProcedureArgument& argument : procedure.arguments) {
    if (number != 0) text += ", ";
    text += std::string(argument.name) + " => " + placeholder(argument, ++number) + "::";
    text +=
        std::string(bound_types && !argument.bound_as.empty() ? argument.bound_as : argument.type);
  }
  return text + ")";
}

}  // namespace

std::string Procedure::callText(std::string_view columns) const {
  return callWith(
      *this, columns,
      [](const ProcedureArgument& argument, size_t) { return ":" + std::string(argument.name); },
      true);
}

std::string Procedure::preparedText(std::string_view columns) const {
  // Parameters travel as text (db::PreparedStatement): each is cast to its declared type.
  return callWith(
      *this, columns,
      [](const ProcedureArgument&, size_t number) { return "$" + std::to_string(number); }, false);
}

const std::vector<const Procedure*>& typedProcedures() {
  static const std::vector<const Procedure*> all = {
      &kPostLedgerEntry,      &kAcceptOutboundMessage,   &kApplyCarrierReceipt,
      &kAcceptBroadcastBatch, &kRecordCarrierAcceptance, &kClaimHandoff,
      &kHandoffState,         &kTakeRequestSlot};
  return all;
}

}  // namespace smsgw::db
