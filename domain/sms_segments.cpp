#include "domain/sms_segments.h"

#include <algorithm>
#include <array>
#include <vector>

namespace smsgw {
namespace {

// GSM 03.38 basic character set, as Unicode code points.
constexpr std::array<char32_t, 128> kGsmBasic = {
    U'@', U'£', U'$', U'¥', U'è', U'é', U'ù', U'ì', U'ò', U'Ç',  U'\n', U'Ø', U'ø', U'\r', U'Å',
    U'å', U'Δ', U'_', U'Φ', U'Γ', U'Λ', U'Ω', U'Π', U'Ψ', U'Σ',  U'Θ',  U'Ξ', 0x1B, U'Æ',  U'æ',
    U'ß', U'É', U' ', U'!', U'"', U'#', U'¤', U'%', U'&', U'\'', U'(',  U')', U'*', U'+',  U',',
    U'-', U'.', U'/', U'0', U'1', U'2', U'3', U'4', U'5', U'6',  U'7',  U'8', U'9', U':',  U';',
    U'<', U'=', U'>', U'?', U'¡', U'A', U'B', U'C', U'D', U'E',  U'F',  U'G', U'H', U'I',  U'J',
    U'K', U'L', U'M', U'N', U'O', U'P', U'Q', U'R', U'S', U'T',  U'U',  U'V', U'W', U'X',  U'Y',
    U'Z', U'Ä', U'Ö', U'Ñ', U'Ü', U'§', U'¿', U'a', U'b', U'c',  U'd',  U'e', U'f', U'g',  U'h',
    U'i', U'j', U'k', U'l', U'm', U'n', U'o', U'p', U'q', U'r',  U's',  U't', U'u', U'v',  U'w',
    U'x', U'y', U'z', U'ä', U'ö', U'ñ', U'ü', U'à'};
// Extension table characters: each costs an escape septet plus itself.
constexpr std::array<char32_t, 10> kGsmExtension = {U'^', U'{', U'}', U'\\', U'[',
                                                    U'~', U']', U'|', U'€',  U'\f'};

bool decodeUtf8(std::string_view text, std::vector<char32_t>& out) {
  for (size_t i = 0; i < text.size();) {
    auto c = static_cast<unsigned char>(text[i]);
    int extra = c < 0x80           ? 0
                : (c >> 5) == 0x6  ? 1
                : (c >> 4) == 0xE  ? 2
                : (c >> 3) == 0x1E ? 3
                                   : -1;
    if (extra < 0 || i + static_cast<size_t>(extra) >= text.size()) return false;
    char32_t cp = extra == 0 ? c : c & (0x3F >> extra);
    for (int k = 1; k <= extra; ++k) {
      auto cc = static_cast<unsigned char>(text[i + static_cast<size_t>(k)]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    out.push_back(cp);
    i += static_cast<size_t>(extra) + 1;
  }
  return true;
}

int partsFor(int units, int single, int multi) {
  if (units == 0) return 0;
  return units <= single ? 1 : (units + multi - 1) / multi;
}

}  // namespace

SegmentCount countSegments(std::string_view body) {
  std::vector<char32_t> cps;
  if (!decodeUtf8(body, cps)) return {SmsEncoding::Ucs2, 0, 0, false};
  int septets = 0;
  bool gsm = true;
  int utf16_units = 0;
  for (char32_t cp : cps) {
    utf16_units += cp > 0xFFFF ? 2 : 1;
    if (cp != 0x1B && std::find(kGsmBasic.begin(), kGsmBasic.end(), cp) != kGsmBasic.end()) {
      septets += 1;
    } else if (std::find(kGsmExtension.begin(), kGsmExtension.end(), cp) != kGsmExtension.end()) {
      septets += 2;
    } else {
      gsm = false;
    }
  }
  int characters = static_cast<int>(cps.size());
  if (gsm) return {SmsEncoding::Gsm7, partsFor(septets, 160, 153), characters, true};
  return {SmsEncoding::Ucs2, partsFor(utf16_units, 70, 67), characters, true};
}

int receivedParts(std::string_view utf8_text) {
  return std::clamp(countSegments(utf8_text).parts, 1, kMaxParts);
}

}  // namespace smsgw
