#pragma once
// E.164 phone numbers. `E164` holds only text that passed `parseE164`.

#include <optional>
#include <string>
#include <string_view>

namespace smsgw {

class E164 {
 public:
  // Syntax only: '+', a non-zero digit, 7 to 14 more digits.
  static std::optional<E164> parse(std::string_view text);
  const std::string& str() const { return value_; }
  bool operator==(const E164&) const = default;

 private:
  explicit E164(std::string value) : value_(std::move(value)) {}
  std::string value_;
};

// A dialable Canadian number: a valid number in region CA, or a NANP toll-free number.
bool isCanadianNumber(const E164& number);
bool isTollFreeNumber(const E164& number);

}  // namespace smsgw
