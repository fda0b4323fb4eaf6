#include "db/procedures/procedure.h"

#include <algorithm>
#include <iterator>

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

std::vector<Cell> Procedure::inOrder(
    std::initializer_list<std::pair<std::string_view, Cell>> named) const {
  auto wrong = [&](std::string_view what, std::string_view argument) {
    return std::logic_error(std::string(name) + ": argument " + std::string(argument) + " " +
                            std::string(what));
  };
  // One pass over the values: each goes to its argument's place, which must still be empty.
  std::vector<Cell> cells(arguments.size());
  std::vector<bool> given(arguments.size(), false);
  for (const auto& value : named) {
    auto argument = std::find_if(arguments.begin(), arguments.end(),
                                 [&](const ProcedureArgument& a) { return a.name == value.first; });
    if (argument == arguments.end()) throw wrong("is not declared", value.first);
    auto at = static_cast<size_t>(std::distance(arguments.begin(), argument));
    if (given[at]) throw wrong("given twice", value.first);
    given[at] = true;
    cells[at] = value.second;
  }
  size_t place = 0;
  for (const ProcedureArgument& argument : arguments) {
    if (!given[place++]) throw wrong("is missing", argument.name);
  }
  return cells;
}

const std::vector<const Procedure*>& typedProcedures() {
  static const std::vector<const Procedure*> all = {&kPostLedgerEntries,
                                                    &kAcceptOutboundMessage,
                                                    &kApplyCarrierReceipt,
                                                    &kAcceptBroadcastBatch,
                                                    &kRecordCarrierAcceptance,
                                                    &kClaimHandoff,
                                                    &kHandoffState,
                                                    &kTakeRequestSlot,
                                                    &kCountCarrierFailure,
                                                    &kEndOAuthGrant,
                                                    &kRaiseEvent};
  return all;
}

}  // namespace smsgw::db
