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

namespace smsgw::db {

std::string Procedure::callText(std::string_view columns) const {
  std::string text = "SELECT " + std::string(columns) + " FROM " + std::string(name) + "(";
  bool first = true;
  for (const ProcedureArgument& argument : arguments) {
    if (!first) text += ", ";
    first = false;
    text += std::string(argument.name) + " => :" + std::string(argument.name) + "::";
    text += std::string(argument.bound_as.empty() ? argument.type : argument.bound_as);
  }
  return text + ")";
}

std::string Procedure::preparedText(std::string_view columns) const {
  std::string text = "SELECT " + std::string(columns) + " FROM " + std::string(name) + "(";
  size_t number = 0;
  for (const ProcedureArgument& argument : arguments) {
    if (number != 0) text += ", ";
    text += std::string(argument.name) + " => $" + std::to_string(++number) + "::";
    text += std::string(argument.type);
  }
  return text + ")";
}

const std::vector<const Procedure*>& typedProcedures() {
  static const std::vector<const Procedure*> all = {
      &kPostLedgerEntry,      &kAcceptOutboundMessage,   &kApplyCarrierReceipt,
      &kAcceptBroadcastBatch, &kRecordCarrierAcceptance, &kClaimHandoff,
      &kHandoffState};
  return all;
}

}  // namespace smsgw::db
