#pragma once
// A response header Pistache has no type for (X-RateLimit-*, x-ratelimit-reset, Retry-After):
// Pistache writes only typed headers, so a raw one added to a response never leaves.

#include <pistache/http_header.h>

#include <string>
#include <utility>

namespace smsgw {

class NamedHeader final : public Pistache::Http::Header::Header {
 public:
  NamedHeader(std::string name, std::string value)
      : name_(std::move(name)), value_(std::move(value)) {}
  const char* name() const override { return name_.c_str(); }
  void write(std::ostream& os) const override { os << value_; }
  uint64_t hash() const override { return Pistache::Http::Header::detail::hash(name_.c_str()); }

 private:
  std::string name_;
  std::string value_;
};

}  // namespace smsgw
