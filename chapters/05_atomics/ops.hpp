/// @file ops.hpp
/// The chapter's keys and its three operations, as plain types both sides share (no CUDA
/// header: the option parser, the CPU reference and --analyze use them too).
#pragma once

#include <cstdint>

#include "algorithm/hd.hpp"

namespace stepwise::atomics {

/// The keys: bin indices in [0, K).
using Key = std::int32_t;

/// Stage 7 (07_thread_runs.cu): the consecutive keys each thread loads and walks, so a warp
/// covers 32 x kKeysPerThread consecutive keys.
inline constexpr int kKeysPerThread = 8;

/// Counting: every element adds 1 to its bin (no values array). int32 bins, exact.
struct IntAdd {
  using Value = std::int32_t;
  using Bin = std::int32_t;
  static constexpr const char* kName = "int-add";
  static constexpr bool kHasValues = false;
};

/// float values in [-1, 1) added with the native float atomicAdd. Atomics add in any order, so
/// the bins are checked within bin_tolerance's bound, not exactly.
struct FloatAdd {
  using Value = float;
  using Bin = float;
  static constexpr const char* kName = "float-add";
  static constexpr bool kHasValues = true;
};

/// double values in [-1, 1) added with an atomicCAS loop: the stand-in for every operation
/// without a native atomic (a max or min of floating point, a product, a user-defined combine),
/// where lanes that collide on an address retry one after the other.
struct DoubleCas {
  using Value = double;
  using Bin = double;
  static constexpr const char* kName = "double-cas";
  static constexpr bool kHasValues = true;
};

/// The filter of the ticket problem: keep the positive values (about half of random int32s).
STEPWISE_HD constexpr bool keeps(std::int32_t value) { return value > 0; }

}  // namespace stepwise::atomics
