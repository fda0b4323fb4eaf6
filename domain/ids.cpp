#include "domain/ids.h"

#include <chrono>

#include "domain/crypto.h"

namespace smsgw {
namespace {

// In ASCII order, so that base62 numbers of one width sort as their values do.
constexpr std::string_view kAlphabet =
    "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

}  // namespace

std::string randomBase62(size_t length) {
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

namespace {

// Milliseconds since 1970 in 8 base62 digits, most significant first (62^8 ms is about 6,900
// years), so these sort as the times do.
std::string timeBase62(std::chrono::system_clock::time_point at) {
  auto ms = static_cast<unsigned long long>(
      std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count());
  std::string out(8, '0');
  for (size_t i = out.size(); i-- > 0; ms /= 62) out[i] = kAlphabet[ms % 62];
  return out;
}

}  // namespace

std::string newId(std::string_view prefix, std::chrono::system_clock::time_point made_at) {
  return std::string(prefix) + "_" + timeBase62(made_at) + randomBase62(16);
}

}  // namespace smsgw
