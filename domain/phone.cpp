#include "domain/phone.h"

#include <phonenumbers/phonenumberutil.h>

#include <algorithm>
#include <array>
#include <cctype>

#include "domain/area_codes.h"

namespace smsgw {
namespace {

constexpr std::array<std::string_view, 7> kTollFreePrefixes = {"800", "833", "844", "855",
                                                               "866", "877", "888"};

}  // namespace

std::optional<E164> E164::parse(std::string_view text) {
  if (text.size() < 9 || text.size() > 16 || text[0] != '+' || text[1] == '0') return std::nullopt;
  if (!std::all_of(text.begin() + 1, text.end(),
                   [](unsigned char c) { return std::isdigit(c) != 0; })) {
    return std::nullopt;
  }
  return E164(std::string(text));
}

bool isTollFreeNumber(const E164& number) {
  const auto& s = number.str();
  if (s.size() != 12 || !s.starts_with("+1")) return false;
  return std::find(kTollFreePrefixes.begin(), kTollFreePrefixes.end(),
                   std::string_view(s).substr(2, 3)) != kTollFreePrefixes.end();
}

bool isCanadianNumber(const E164& number) {
  using i18n::phonenumbers::PhoneNumber;
  using i18n::phonenumbers::PhoneNumberUtil;
  if (!number.str().starts_with("+1") || number.str().size() != 12) return false;
  if (isTollFreeNumber(number)) return true;
  // Area codes opened after the installed libphonenumber's metadata (942, 257, …) are in our
  // own data; the exchange must still be a valid NXX (first digit 2-9).
  const char exchange_first_digit = number.str()[5];
  if (areaCodes().isSold(areaCodeOf(number.str())) && exchange_first_digit >= '2' &&
      exchange_first_digit <= '9') {
    return true;
  }
  const PhoneNumberUtil* util = PhoneNumberUtil::GetInstance();
  PhoneNumber parsed;
  if (util->Parse(number.str(), "CA", &parsed) != PhoneNumberUtil::NO_PARSING_ERROR) return false;
  return util->IsValidNumberForRegion(parsed, "CA");
}

}  // namespace smsgw
