// libFuzzer's entry point for the HTTP edge (built by ops/fuzz with clang).
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/edge_fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  smsgw::fuzz::runEdgeOnce(data, size);
  return 0;
}
