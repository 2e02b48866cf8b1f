// The prelude plus Eigen, for problems whose adapter uses it (kv_cache,
// speculative_decoding): Eigen is most of what those runners parse.
#pragma once

#include <judge_harness/prelude.hpp>

#include <Eigen/Dense>
