#pragma once
// The HTTP edge as a fuzz target: a connection's bytes in, the answers the edge would write
// out, checked. Shared by the bounded mutation test in ops/test (tests/unit/edge_fuzz_test.cpp)
// and the coverage-guided libFuzzer binary that `ops/fuzz` runs for as long as asked.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace smsgw::fuzz {

// Feeds `data` to a fresh connection's framer in up to three pieces (its first byte chooses
// the cuts), reads every request framed as the edge does (URL, headers, body, route), and
// builds the answer to every refusal. Aborts, which a fuzzer reports as a crash, when an
// answer is not the spec's error body or an exception other than a domain error escapes.
// Returns how many answers were checked.
int runEdgeOnce(const uint8_t* data, size_t size);

// Requests of every kind the API takes, to start mutating from: the files of tests/fuzz/seeds,
// each a first byte (how to cut the rest into reads) and the request's bytes.
std::vector<std::string> seedRequests();

}  // namespace smsgw::fuzz
