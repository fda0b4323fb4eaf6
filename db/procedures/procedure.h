#pragma once
// The typed boundary to the PL/pgSQL functions that decide something: each has one wrapper in
// this folder, taking a struct with named fields and answering an enum, never a string.
//
// A wrapper declares its function here (name, arguments with their PostgreSQL types, result,
// and every verdict it may answer), and calls it with callText: PostgreSQL's named notation
// (p_id => :p_id), bound by name, so an argument can neither go to the wrong parameter nor be
// left out silently. tests/integration/procedures_test.cpp compares each declaration with the
// function in pg_proc, and each verdict the function's source can return with the wrapper's
// enum: a drift fails the tests, not production.

#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "db/prepared_statement.h"

namespace smsgw::db {

struct ProcedureArgument {
  std::string_view name;  // the parameter's name, p_…
  std::string_view type;  // as pg_get_function_identity_arguments spells it
  // How the bound value becomes that type when SOCI cannot bind it as such (a bool bound as an
  // int: "int::boolean"); empty: cast to `type`.
  std::string_view bound_as{};
};

// Every outcome text a function returns, read from its wrapper's verdict table (verdictTexts).
using VerdictList = std::vector<std::string_view> (*)();

// Constant-initialized (no allocation before main: cert-err58-cpp); the arguments' array lives
// as long as the Procedure, as an initializer_list member of an aggregate does.
struct Procedure {
  std::string_view name;
  std::initializer_list<ProcedureArgument> arguments;
  std::string_view result;         // as pg_get_function_result spells it
  VerdictList verdicts = nullptr;  // none: the function answers no verdict

  std::vector<std::string_view> verdictList() const {
    if (verdicts == nullptr) return {};
    return verdicts();
  }

  // "SELECT <columns> FROM name(p_a => :p_a::type, …)": bind each argument by its name.
  std::string callText(std::string_view columns) const;
  // "SELECT <columns> FROM name(p_a => $1::type, …)", the arguments numbered in their order:
  // the text of a db::PreparedStatement, whose parameters inOrder gives.
  std::string preparedText(std::string_view columns) const;
  // The values of a prepared call, given by argument name, in the declaration's order. Throws
  // std::logic_error when a name is not an argument, is given twice, or an argument is missing:
  // a value cannot reach another parameter by its place in a list.
  std::vector<Cell> inOrder(std::initializer_list<std::pair<std::string_view, Cell>> named) const;
};

// The wrappers' functions, for the drift test.
const std::vector<const Procedure*>& typedProcedures();

// The enum value of a verdict the function answered; throws when it answered one the wrapper
// does not know (the drift test should have caught it first).
template <typename Verdict, size_t N>
Verdict verdictOf(const Procedure& procedure,
                  const std::pair<std::string_view, Verdict> (&verdicts)[N],
                  std::string_view answered) {
  for (const auto& [text, value] : verdicts) {
    if (text == answered) return value;
  }
  throw std::logic_error(std::string(procedure.name) +
                         " answered an unknown verdict: " + std::string(answered));
}

// The texts of a wrapper's verdict table, for its Procedure.
template <typename Verdict, size_t N>
std::vector<std::string_view> verdictTexts(
    const std::pair<std::string_view, Verdict> (&verdicts)[N]) {
  std::vector<std::string_view> texts;
  texts.reserve(N);
  for (const auto& verdict : verdicts) texts.push_back(verdict.first);
  return texts;
}

}  // namespace smsgw::db
