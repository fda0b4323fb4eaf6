#include "domain/locale.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace smsgw {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

double parseQuality(std::string_view params) {
  // params look like ";q=0.8" possibly with other parameters around it.
  size_t pos = 0;
  while (pos < params.size()) {
    size_t next = params.find(';', pos);
    std::string_view param =
        trim(params.substr(pos, next == std::string_view::npos ? next : next - pos));
    if (param.size() > 2 && (param[0] == 'q' || param[0] == 'Q') && param[1] == '=') {
      try {
        return std::clamp(std::stod(std::string(param.substr(2))), 0.0, 1.0);
      } catch (...) {
        return 0.0;  // a malformed weight never wins
      }
    }
    if (next == std::string_view::npos) break;
    pos = next + 1;
  }
  return 1.0;
}

}  // namespace

Language preferredLanguage(std::string_view header) {
  double english = -1, french = -1;
  size_t pos = 0;
  while (pos <= header.size()) {
    size_t comma = header.find(',', pos);
    std::string_view item = trim(
        header.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos));
    size_t semi = item.find(';');
    std::string tag(trim(item.substr(0, semi)));
    std::transform(tag.begin(), tag.end(), tag.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    double q = semi == std::string_view::npos ? 1.0 : parseQuality(item.substr(semi));
    std::string primary = tag.substr(0, tag.find('-'));
    if (primary == "fr") french = std::max(french, q);
    if (primary == "en" || primary == "*") english = std::max(english, q);
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  return french > 0 && french > english ? Language::French : Language::English;
}

}  // namespace smsgw
