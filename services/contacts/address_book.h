#pragma once
// What the address book's services share: a field a PATCH may set or clear, and the lock that
// makes an account's uniqueness checks and writes one step.

#include <soci/session.h>

#include <optional>
#include <string>

namespace smsgw::contacts {

// A field given: its value, or null to clear it (a PATCH); absent: unchanged.
using FieldChange = std::optional<std::optional<std::string>>;

// The fields of a group or a list (named_sets.h).
struct NamedFields {
  std::optional<std::string> name;  // required on creation
  FieldChange description;
};

// Held to the end of the transaction: one account's address-book writes run one at a time, so
// a name or number found free stays free until the write commits. An advisory lock rather than
// the account's row, which every send debits.
void lockAddressBook(soci::session& sql, const std::string& account_id);

// A nullable column as read by SOCI.
inline std::optional<std::string> nullable(const std::string& value, soci::indicator indicator) {
  return indicator == soci::i_ok ? std::optional(value) : std::nullopt;
}

// The value and indicator to bind for an optional column.
struct NullableText {
  explicit NullableText(const std::optional<std::string>& value)
      : text(value.value_or("")), indicator(value ? soci::i_ok : soci::i_null) {}
  std::string text;
  soci::indicator indicator;
};

}  // namespace smsgw::contacts
