#include "domain/ed25519.h"

#include <openssl/evp.h>

#include <memory>
#include <stdexcept>

namespace smsgw::crypto {
namespace {

using Key = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;
using DigestContext = std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)>;

const unsigned char* bytesOf(std::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

Key privateKey(std::string_view raw) {
  if (raw.size() != kEd25519KeyBytes)
    throw std::invalid_argument("an Ed25519 private key is 32 bytes");
  Key key(EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr, bytesOf(raw), raw.size()),
          EVP_PKEY_free);
  if (!key) throw std::runtime_error("OpenSSL refused an Ed25519 private key");
  return key;
}

std::string rawPublicKey(EVP_PKEY* key) {
  std::string out(kEd25519KeyBytes, '\0');
  size_t length = out.size();
  if (EVP_PKEY_get_raw_public_key(key, reinterpret_cast<unsigned char*>(out.data()), &length) !=
          1 ||
      length != kEd25519KeyBytes)
    throw std::runtime_error("OpenSSL gave no Ed25519 public key");
  return out;
}

}  // namespace

Ed25519KeyPair newEd25519KeyPair() {
  std::unique_ptr<EVP_PKEY_CTX, decltype(&EVP_PKEY_CTX_free)> ctx(
      EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nullptr), EVP_PKEY_CTX_free);
  EVP_PKEY* made = nullptr;
  if (!ctx || EVP_PKEY_keygen_init(ctx.get()) != 1 || EVP_PKEY_keygen(ctx.get(), &made) != 1)
    throw std::runtime_error("OpenSSL could not make an Ed25519 key");
  Key key(made, EVP_PKEY_free);
  Ed25519KeyPair pair;
  pair.private_key.resize(kEd25519KeyBytes);
  size_t length = kEd25519KeyBytes;
  if (EVP_PKEY_get_raw_private_key(
          key.get(), reinterpret_cast<unsigned char*>(pair.private_key.data()), &length) != 1)
    throw std::runtime_error("OpenSSL gave no Ed25519 private key");
  pair.public_key = rawPublicKey(key.get());
  return pair;
}

std::string ed25519PublicKey(std::string_view private_key) {
  return rawPublicKey(privateKey(private_key).get());
}

std::string ed25519Sign(std::string_view private_key, std::string_view message) {
  Key key = privateKey(private_key);
  DigestContext ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  std::string signature(kEd25519SignatureBytes, '\0');
  size_t length = signature.size();
  // Ed25519 hashes the message itself: no digest is named, and it signs in one call.
  if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) != 1 ||
      EVP_DigestSign(ctx.get(), reinterpret_cast<unsigned char*>(signature.data()), &length,
                     bytesOf(message), message.size()) != 1)
    throw std::runtime_error("OpenSSL could not sign with Ed25519");
  return signature;
}

bool ed25519Verify(std::string_view public_key, std::string_view message,
                   std::string_view signature) {
  if (public_key.size() != kEd25519KeyBytes || signature.size() != kEd25519SignatureBytes)
    return false;
  Key key(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, bytesOf(public_key),
                                      public_key.size()),
          EVP_PKEY_free);
  DigestContext ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  return key && ctx && EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, key.get()) == 1 &&
         EVP_DigestVerify(ctx.get(), bytesOf(signature), signature.size(), bytesOf(message),
                          message.size()) == 1;
}

}  // namespace smsgw::crypto
