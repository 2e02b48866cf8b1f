// Decoding a request of a few megabytes and building the learner's vectors
// touches tens of megabytes of fresh heap. On a virtual machine each 4 KiB
// page then costs a trap to the hypervisor: the first large call of a runner
// spent about 150 ms in page faults for 8 ms of the learner's work. Asking
// the kernel for the memory in one step, in 2 MiB pages where it can, costs
// a few milliseconds. The runner keeps freed memory (GLIBC_TUNABLES set by
// the judge: no trimming, no mmap for large blocks), so one block allocated,
// populated and freed here is what later allocations reuse.
#include "heap_warmup.hpp"

#include <judge_harness/protocol.hpp>

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; older kernels reject it and nothing happens
#endif

namespace judge_harness {
namespace {
constexpr std::size_t kWarmFromRequestBytes = 256 << 10;
constexpr std::size_t kHeapBytesPerRequestByte = 8;
// The pages stay resident and count against the learner's memory limit, so
// the judge sets the most to pre-fault (kWarmupLimitVariable, a small part of
// that limit); without it nothing is pre-faulted.
constexpr std::size_t kMaxWarmHeapBytes = 32 << 20;
constexpr std::uintptr_t kHugePageBytes = 2 << 20;

std::size_t warmed_bytes = 0;

std::size_t warmup_limit() {
  static const std::size_t limit = [] {
    const char* value = std::getenv(kWarmupLimitVariable);
    if (value == nullptr) return std::size_t{0};
    unsigned long long bytes = std::strtoull(value, nullptr, 10);
    return static_cast<std::size_t>(bytes < kMaxWarmHeapBytes ? bytes : kMaxWarmHeapBytes);
  }();
  return limit;
}
}  // namespace

void warm_heap_for_request(std::size_t request_bytes) {
  if (request_bytes < kWarmFromRequestBytes) return;
  std::size_t want = request_bytes * kHeapBytesPerRequestByte;
  if (want > warmup_limit()) want = warmup_limit();
  if (want <= warmed_bytes) return;
  void* block = std::malloc(want);
  if (block == nullptr) return;
  auto first = reinterpret_cast<std::uintptr_t>(block);
  std::uintptr_t begin = (first + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  std::uintptr_t end = (first + want) & ~(kHugePageBytes - 1);
  if (end > begin) {
    madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
    madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
  }
  std::free(block);
  warmed_bytes = want;
}

}  // namespace judge_harness
