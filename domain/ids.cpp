#include "domain/ids.h"

#include "domain/crypto.h"

namespace smsgw {

std::string randomBase62(size_t length) {
  static constexpr std::string_view kAlphabet =
      "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  std::string out;
  out.reserve(length);
  while (out.size() < length) {
    for (unsigned char c : crypto::randomBytes(length)) {
      // Rejection sampling keeps every character equally likely (248 = 4 * 62).
      if (c < 248 && out.size() < length) out.push_back(kAlphabet[c % 62]);
    }
  }
  return out;
}

std::string newId(std::string_view prefix) {
  return std::string(prefix) + "_" + randomBase62(24);
}

}  // namespace smsgw
