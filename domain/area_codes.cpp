#include "domain/area_codes.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

namespace smsgw {

extern const char* const kAreaCodesCsv;  // generated from data/area_codes.csv

namespace {

std::vector<std::string> splitColumns(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream stream(line);
  std::string column;
  while (std::getline(stream, column, ',')) out.push_back(column);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

bool isThreeDigits(const std::string& text) {
  return text.size() == 3 && std::all_of(text.begin(), text.end(),
                                         [](unsigned char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

AreaCodeCatalogue AreaCodeCatalogue::parse(std::string_view csv) {
  std::map<std::string, AreaCode> by_code;
  std::stringstream stream{std::string(csv)};
  std::string line;
  int line_number = 0;
  while (std::getline(stream, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.front() == '#') continue;
    auto columns = splitColumns(line);
    bool toll_free = columns.size() == 4 && columns[1] == "toll_free";
    bool geographic = columns.size() == 4 && columns[1] == "geographic" && !columns[2].empty() &&
                      columns[3].size() == 2;
    if (!isThreeDigits(columns.empty() ? "" : columns[0]) || (!toll_free && !geographic)) {
      throw std::invalid_argument("area code data, line " + std::to_string(line_number) + ": " +
                                  line);
    }
    AreaCode& entry = by_code[columns[0]];
    if (!entry.code.empty() && entry.toll_free != toll_free) {
      throw std::invalid_argument("area code " + columns[0] + " is both toll-free and geographic");
    }
    entry.code = columns[0];
    entry.toll_free = toll_free;
    if (geographic) entry.provinces.push_back({columns[2], columns[3]});
  }
  AreaCodeCatalogue catalogue;
  for (auto& [code, entry] : by_code) catalogue.codes_.push_back(std::move(entry));
  return catalogue;
}

const AreaCode* AreaCodeCatalogue::find(std::string_view code) const {
  auto it = std::lower_bound(codes_.begin(), codes_.end(), code,
                             [](const AreaCode& a, std::string_view c) { return a.code < c; });
  return it != codes_.end() && it->code == code ? &*it : nullptr;
}

std::optional<std::string> AreaCodeCatalogue::regionOf(std::string_view code) const {
  const AreaCode* entry = find(code);
  if (!entry || entry->provinces.size() != 1) return std::nullopt;
  return entry->provinces.front().name;
}

std::vector<ProvinceAreaCodes> AreaCodeCatalogue::byProvince() const {
  std::map<std::string, ProvinceAreaCodes> groups;
  for (const auto& entry : codes_) {
    for (const auto& province : entry.provinces) {
      auto& group = groups[province.name];
      group.province = province;
      group.area_codes.push_back(entry.code);  // codes_ is ascending, so each group is too
    }
  }
  std::vector<ProvinceAreaCodes> out;
  out.reserve(groups.size());
  for (auto& [name, group] : groups) out.push_back(std::move(group));
  return out;
}

std::vector<std::string> AreaCodeCatalogue::tollFreePrefixes() const {
  std::vector<std::string> out;
  for (const auto& entry : codes_) {
    if (entry.toll_free) out.push_back(entry.code);
  }
  return out;
}

const AreaCodeCatalogue& areaCodes() {
  static const AreaCodeCatalogue catalogue = AreaCodeCatalogue::parse(kAreaCodesCsv);
  return catalogue;
}

std::string areaCodeOf(std::string_view e164) {
  if (e164.size() != 12 || !e164.starts_with("+1")) return "";
  return std::string(e164.substr(2, 3));
}

}  // namespace smsgw
