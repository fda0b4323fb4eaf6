// A bounded, repeatable fuzz of the HTTP edge (tests/fuzz/edge_fuzz.h): seeds of every kind of
// request, mutated the way fuzzers mutate (flips, insertions of HTTP and JSON tokens, deletions,
// repeats, splices), a fixed count with a fixed seed. Any crash, hang or answer not in the
// spec's shape fails the run. `ops/fuzz --minutes N` runs the coverage-guided fuzzer longer.
#include "tests/fuzz/edge_fuzz.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

namespace {

const std::vector<std::string> kTokens = {
    "\r\n",
    "\r\n\r\n",
    ":",
    " ",
    "%",
    "%ff",
    "%00",
    "%2F",
    "\xff",
    "\xc3",
    std::string(1, '\0'),  // "\x00" would be the empty string: a literal ends at its NUL
    "Content-Length: ",
    "Content-Length: 99999999999",
    "Transfer-Encoding: chunked\r\n",
    "Connection: close\r\n",
    "Expect: 100-continue\r\n",
    "X-Request-Id: ",
    "HTTP/1.0",
    "HTTP/1.1",
    "HTTP/2.0",
    "GET ",
    "POST ",
    "?",
    "&",
    "=",
    "{",
    "}",
    "[",
    "]",
    "\"",
    "\\u0000",
    "\\ud800",
    "\\",
    ",",
    "0\r\n\r\n",
    "ffffffff\r\n",
    "1e999",
    "-0",
    "null",
    "true",
    std::string(70, '['),
};

class Mutator {
 public:
  explicit Mutator(uint32_t seed) : random_(seed) {}

  std::string mutate(const std::vector<std::string>& seeds) {
    std::string out = pick(seeds);  // never empty: a first byte, then the request
    size_t rounds = 1 + below(4);
    for (size_t i = 0; i < rounds; ++i) {
      switch (below(6)) {
        case 0:  // flip a bit
          if (!out.empty()) {
            char& byte = out[below(out.size())];
            byte = static_cast<char>(static_cast<unsigned char>(byte) ^ (1U << below(8)));
          }
          break;
        case 1:  // a random byte
          if (!out.empty()) out[below(out.size())] = static_cast<char>(below(256));
          break;
        case 2:  // insert a token
          out.insert(below(out.size() + 1), pick(kTokens));
          break;
        case 3: {  // delete a run
          if (out.empty()) break;
          size_t at = below(out.size());
          out.erase(at, below(std::min<size_t>(out.size() - at, 64)) + 1);
          break;
        }
        case 4: {  // repeat a run
          if (out.empty()) break;
          size_t at = below(out.size());
          std::string run = out.substr(at, below(32) + 1);
          for (size_t n = below(8) + 1; n > 0; --n) out.insert(at, run);
          break;
        }
        default:  // splice another seed in
          out.insert(below(out.size() + 1), pick(seeds).substr(0, below(200)));
      }
    }
    if (out.empty()) out.push_back(0);
    out[0] = static_cast<char>(below(256));  // the first byte cuts the rest into reads
    return out;
  }

 private:
  size_t below(size_t n) {
    return n == 0 ? 0 : std::uniform_int_distribution<size_t>(0, n - 1)(random_);
  }
  const std::string& pick(const std::vector<std::string>& from) { return from[below(from.size())]; }
  std::mt19937 random_;
};

}  // namespace

TEST(EdgeFuzz, SeedsAreAnsweredAsRequests) {
  auto seeds = smsgw::fuzz::seedRequests();
  ASSERT_GE(seeds.size(), 10u);
  for (const auto& seed : seeds) {
    EXPECT_GE(smsgw::fuzz::runEdgeOnce(reinterpret_cast<const uint8_t*>(seed.data()), seed.size()),
              1)
        << seed;
  }
}

TEST(EdgeFuzz, MutatedRequestsNeverCrashHangOrAnswerOutOfShape) {
  const char* configured = std::getenv("EDGE_FUZZ_INPUTS");
  long inputs = configured ? std::atol(configured) : 120'000;
  auto seeds = smsgw::fuzz::seedRequests();
  Mutator mutator(20261123);
  long answers = 0;
  for (long i = 0; i < inputs; ++i) {
    std::string input = mutator.mutate(seeds);
    answers +=
        smsgw::fuzz::runEdgeOnce(reinterpret_cast<const uint8_t*>(input.data()), input.size());
  }
  RecordProperty("inputs", static_cast<int>(inputs));
  RecordProperty("answers", static_cast<int>(answers));
  std::printf("edge fuzz: %ld inputs, %ld answers checked, 0 failures\n", inputs, answers);
  EXPECT_GT(answers, inputs / 2) << "most mutants still frame into requests or refusals";
}
