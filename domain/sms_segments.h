#pragma once
// How a carrier splits a text into SMS parts: GSM-7 when every character is in the GSM 03.38
// table (extension characters take two septets), otherwise UCS-2 (UTF-16 code units).

#include <string_view>

namespace smsgw {

enum class SmsEncoding { Gsm7, Ucs2 };

struct SegmentCount {
  SmsEncoding encoding;
  int parts;       // 0 for an empty body
  int characters;  // Unicode code points, for the 1600-character limit
  bool valid_utf8;
};

SegmentCount countSegments(std::string_view utf8_body);

inline constexpr int kMaxParts = 10;
inline constexpr int kMaxCharacters = 1600;

// The parts a received text is counted and charged as: our own count of its text, never the
// carrier's figure alone (issue 49: a signed callback claiming 1,000 parts was charged $10.00),
// at least 1 (an empty text still arrived) and at most kMaxParts.
int receivedParts(std::string_view utf8_text);

}  // namespace smsgw
