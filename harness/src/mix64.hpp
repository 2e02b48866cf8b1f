// splitmix64's finalizer: a well-mixed 64-bit hash of a 64-bit value, for
// the harness's own deterministic toy models (never the learner's code).
#pragma once

#include <cstdint>

namespace judge_harness {

inline std::uint64_t mix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace judge_harness
