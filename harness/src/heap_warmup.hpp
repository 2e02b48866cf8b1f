// Pre-faults the runner's heap before a large request is decoded.
#pragma once

#include <cstddef>

namespace judge_harness {

// Makes sure some multiple of `request_bytes` of heap (at most the bytes in
// the environment variable JUDGE_HEAP_WARMUP_BYTES, at most 32 MiB) is
// already backed by memory, in huge pages where the kernel has them. Small
// requests, and runners started without that variable, do nothing.
void warm_heap_for_request(std::size_t request_bytes);

}  // namespace judge_harness
