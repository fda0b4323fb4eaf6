#pragma once
// The area codes we sell: every active Canadian area code with its province or territory,
// plus the toll-free prefixes. The data is domain/data/area_codes.csv, embedded at build
// time; this is its only reader. Immutable after first use; thread-safe.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace smsgw {

struct Province {
  std::string name;  // e.g. Ontario
  std::string code;  // ISO 3166-2:CA suffix, e.g. ON
};

struct AreaCode {
  std::string code;  // three digits
  bool toll_free = false;
  std::vector<Province> provinces;  // empty for toll-free; several for shared codes (867)
};

struct ProvinceAreaCodes {
  Province province;
  std::vector<std::string> area_codes;  // ascending
};

class AreaCodeCatalogue {
 public:
  // Parses CSV rows "area_code,kind,province,province_code" ('#' lines are comments).
  // Throws std::invalid_argument on a malformed row.
  static AreaCodeCatalogue parse(std::string_view csv);

  const AreaCode* find(std::string_view code) const;
  bool isSold(std::string_view code) const { return find(code) != nullptr; }
  // The province name when the code serves exactly one; null for shared and toll-free codes.
  std::optional<std::string> regionOf(std::string_view code) const;

  std::span<const AreaCode> all() const { return codes_; }
  std::vector<ProvinceAreaCodes> byProvince() const;  // provinces in alphabetical order
  std::vector<std::string> tollFreePrefixes() const;  // ascending

 private:
  std::vector<AreaCode> codes_;  // ascending by code
};

// The catalogue built from the embedded data file.
const AreaCodeCatalogue& areaCodes();

// The area code of a NANP number (+1NPA…), or empty for anything else.
std::string areaCodeOf(std::string_view e164);

}  // namespace smsgw
