#include "db/procedures/procedure.h"

#include <algorithm>

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
  for (const auto& given : named) {
    bool declared = std::any_of(arguments.begin(), arguments.end(),
                                [&](const ProcedureArgument& a) { return a.name == given.first; });
    if (!declared) throw wrong("is not declared", given.first);
  }
  std::vector<Cell> cells;
  cells.reserve(arguments.size());
  for (const ProcedureArgument& argument : arguments) {
    auto same = [&](const auto& pair) { return pair.first == argument.name; };
    auto found = std::find_if(named.begin(), named.end(), same);
    if (found == named.end()) throw wrong("is missing", argument.name);
    if (std::count_if(named.begin(), named.end(), same) > 1)
      throw wrong("given twice", argument.name);
    cells.push_back(found->second);
  }
  return cells;
}

const std::vector<const Procedure*>& typedProcedures() {
  static const std::vector<const Procedure*> all = {&kPostLedgerEntry,
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
