#include "domain/crypto.h"

#include <fmt/format.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

namespace smsgw::crypto {
namespace {

const unsigned char* bytesOf(std::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

// scrypt cost: 16 MiB of memory per hash, about 50 ms here; enough to make offline guessing slow.
constexpr uint64_t kScryptN = 1 << 14;
constexpr uint64_t kScryptR = 8;
constexpr uint64_t kScryptP = 1;
constexpr size_t kScryptLen = 32;

std::string scrypt(std::string_view password, std::string_view salt, uint64_t n, uint64_t r,
                   uint64_t p) {
  std::string out(kScryptLen, '\0');
  if (EVP_PBE_scrypt(password.data(), password.size(), bytesOf(salt), salt.size(), n, r, p,
                     64ull * 1024 * 1024, reinterpret_cast<unsigned char*>(out.data()),
                     out.size()) != 1) {
    throw std::runtime_error("scrypt failed");
  }
  return out;
}

}  // namespace

std::string randomBytes(size_t count) {
  std::string out(count, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(count)) != 1) {
    throw std::runtime_error("RAND_bytes failed");
  }
  return out;
}

std::string hex(std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 0xf]);
  }
  return out;
}

std::string base64(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), bytesOf(bytes),
                          static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(n));
  return out;
}

std::string base64Decode(std::string_view text) {
  if (text.size() % 4 != 0) throw std::invalid_argument("base64 length");
  std::string out(text.size() / 4 * 3, '\0');
  int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()), bytesOf(text),
                          static_cast<int>(text.size()));
  if (n < 0) throw std::invalid_argument("base64 text");
  size_t padding = 0;
  if (!text.empty() && text.back() == '=') padding++;
  if (text.size() > 1 && text[text.size() - 2] == '=') padding++;
  out.resize(static_cast<size_t>(n) - padding);
  return out;
}

std::string sha256(std::string_view data) {
  std::string out(SHA256_DIGEST_LENGTH, '\0');
  SHA256(bytesOf(data), data.size(), reinterpret_cast<unsigned char*>(out.data()));
  return out;
}

std::string sha256Hex(std::string_view data) {
  return hex(sha256(data));
}

std::string hmacSha256(std::string_view key, std::string_view data) {
  std::string out(EVP_MAX_MD_SIZE, '\0');
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), bytesOf(data), data.size(),
       reinterpret_cast<unsigned char*>(out.data()), &len);
  out.resize(len);
  return out;
}

bool constantTimeEquals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string hashPassword(std::string_view password) {
  std::string salt = randomBytes(16);
  return fmt::format("scrypt${}${}${}${}${}", kScryptN, kScryptR, kScryptP, base64(salt),
                     base64(scrypt(password, salt, kScryptN, kScryptR, kScryptP)));
}

bool verifyPassword(std::string_view password, std::string_view stored) {
  std::vector<std::string> parts;
  size_t pos = 0;
  while (true) {
    size_t next = stored.find('$', pos);
    parts.emplace_back(stored.substr(pos, next == std::string_view::npos ? next : next - pos));
    if (next == std::string_view::npos) break;
    pos = next + 1;
  }
  if (parts.size() != 6 || parts[0] != "scrypt") return false;
  try {
    std::string expected = base64Decode(parts[5]);
    std::string actual = scrypt(password, base64Decode(parts[4]), std::stoull(parts[1]),
                                std::stoull(parts[2]), std::stoull(parts[3]));
    return constantTimeEquals(expected, actual);
  } catch (const std::exception&) {
    return false;
  }
}

namespace {

// 16 bytes as a UUID of `version` (RFC 9562 variant bits), in its 8-4-4-4-12 hex form.
std::string formatUuid(std::string b, int version) {
  b[6] = static_cast<char>((b[6] & 0x0f) | (version << 4));
  b[8] = static_cast<char>((b[8] & 0x3f) | 0x80);
  std::string h = hex(b);
  return fmt::format("{}-{}-{}-{}-{}", h.substr(0, 8), h.substr(8, 4), h.substr(12, 4),
                     h.substr(16, 4), h.substr(20));
}

}  // namespace

std::string uuid4() {
  return formatUuid(randomBytes(16), 4);
}

std::string uuid7(std::chrono::system_clock::time_point made_at) {
  std::string b = randomBytes(16);
  auto ms = static_cast<unsigned long long>(
      std::chrono::duration_cast<std::chrono::milliseconds>(made_at.time_since_epoch()).count());
  for (int i = 5; i >= 0; --i, ms >>= 8) b[i] = static_cast<char>(ms & 0xff);
  return formatUuid(std::move(b), 7);
}

std::string randomDigits(size_t count) {
  std::string digits;
  while (digits.size() < count) {
    for (unsigned char c : randomBytes(count)) {
      if (c < 250 && digits.size() < count) digits.push_back(static_cast<char>('0' + c % 10));
    }
  }
  return digits;
}

namespace {

constexpr size_t kNonceBytes = 12, kTagBytes = 16;

using CipherContext = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

CipherContext gcm(std::string_view key, std::string_view nonce, bool encrypt) {
  if (key.size() != 32) throw std::invalid_argument("an AES-256 key is 32 bytes");
  CipherContext ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
  auto init = encrypt ? EVP_EncryptInit_ex : EVP_DecryptInit_ex;
  if (!ctx || init(ctx.get(), EVP_aes_256_gcm(), nullptr, bytesOf(key), bytesOf(nonce)) != 1)
    throw std::runtime_error("AES-GCM set-up failed");
  return ctx;
}

}  // namespace

std::string seal(std::string_view key, std::string_view plaintext) {
  std::string nonce = randomBytes(kNonceBytes);
  CipherContext ctx = gcm(key, nonce, true);
  std::string out(plaintext.size(), '\0');
  int len = 0;
  if (EVP_EncryptUpdate(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), &len,
                        bytesOf(plaintext), static_cast<int>(plaintext.size())) != 1 ||
      EVP_EncryptFinal_ex(ctx.get(), nullptr, &len) != 1)
    throw std::runtime_error("AES-GCM encryption failed");
  std::string tag(kTagBytes, '\0');
  if (EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, kTagBytes, tag.data()) != 1)
    throw std::runtime_error("AES-GCM tag failed");
  return base64(nonce + out + tag);
}

std::optional<std::string> openSealed(std::string_view key, std::string_view sealed) {
  std::string raw;
  try {
    raw = base64Decode(sealed);
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
  if (raw.size() < kNonceBytes + kTagBytes) return std::nullopt;
  std::string nonce = raw.substr(0, kNonceBytes), tag = raw.substr(raw.size() - kTagBytes);
  std::string ciphertext = raw.substr(kNonceBytes, raw.size() - kNonceBytes - kTagBytes);
  CipherContext ctx = gcm(key, nonce, false);
  std::string out(ciphertext.size(), '\0');
  int len = 0;
  if (EVP_DecryptUpdate(ctx.get(), reinterpret_cast<unsigned char*>(out.data()), &len,
                        bytesOf(ciphertext), static_cast<int>(ciphertext.size())) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, kTagBytes, tag.data()) != 1 ||
      EVP_DecryptFinal_ex(ctx.get(), nullptr, &len) != 1)
    return std::nullopt;
  return out;
}

}  // namespace smsgw::crypto
