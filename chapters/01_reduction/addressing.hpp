/// @file addressing.hpp
/// The shared-memory index maps of Harris's kernels 1 to 3 (stages 1, 3 and 4) and of stage
/// 2, written once for both sides: the kernels call thread_work() in their tree loops, and
/// --analyze (reduce_analysis.hpp) replays the very same calls on the CPU, thread by thread,
/// to count divergent warps and bank conflicts and to draw the trees. Plain C++: no CUDA
/// header.
#pragma once

#include <vector>

#include "algorithm/hd.hpp"

namespace stepwise::reduction {

/// The addressing schemes of the slides' shared-memory tree (Harris's kernels 1 to 3), and
/// stage 2's variant of kernel 1.
enum class Addressing {
  /// Harris's kernel 1 (stage 1): `if (tid % (2*s) == 0) sdata[tid] += sdata[tid + s]`, s = 1, 2, 4, ...
  interleaved_divergent,
  /// Stage 2: kernel 1's map with the test `(tid & (2*s - 1)) == 0`: the same threads add the
  /// same words, without the division that `%` by a run-time value compiles to.
  interleaved_divergent_mask,
  /// Harris's kernel 2 (stage 3): `index = 2*s*tid; if (index < blockDim.x) sdata[index] += sdata[index + s]`
  interleaved_strided,
  /// Harris's kernel 3 (stage 4): `if (tid < s) sdata[tid] += sdata[tid + s]`, s = blockDim.x / 2, ..., 1
  sequential,
};

/// The number of @p scheme's kernel in Harris's slides (1 to 3), or 0 for stage 2's variant,
/// which the slides do not have.
constexpr int harris_kernel(Addressing scheme) {
  switch (scheme) {
    case Addressing::interleaved_divergent:
      return 1;
    case Addressing::interleaved_divergent_mask:
      return 0;
    case Addressing::interleaved_strided:
      return 2;
    case Addressing::sequential:
      return 3;
  }
  return 0;
}

/// What one thread does at one step of the tree: whether it adds, and the two word indices
/// of `sdata[left] += sdata[right]` (it reads both and writes left).
struct ThreadWork {
  bool active = false;
  unsigned left = 0;
  unsigned right = 0;
};

/// Thread @p tid's work at stride @p stride in a block of @p block threads under @p scheme.
STEPWISE_HD constexpr ThreadWork thread_work(Addressing scheme, unsigned tid, unsigned stride, unsigned block) {
  switch (scheme) {
    case Addressing::interleaved_divergent:
      // The adding threads are the multiples of 2s, scattered over every warp: every warp
      // diverges, and `%` is slow.
      return {tid % (2 * stride) == 0, tid, tid + stride};
    case Addressing::interleaved_divergent_mask:
      // The same threads as kernel 1 (2s is a power of two, so tid % 2s is tid's low bits),
      // found with one AND instead of an integer division: the same divergence.
      return {(tid & (2 * stride - 1)) == 0, tid, tid + stride};
    case Addressing::interleaved_strided: {
      // The adding threads are the first block / 2s (whole warps busy or idle), but lane
      // after lane the words are 2s apart: 2s lanes of a warp share a bank.
      const unsigned index = 2 * stride * tid;
      return {index < block, index, index + stride};
    }
    case Addressing::sequential:
      // The first s threads add, and consecutive lanes touch consecutive words: no
      // divergence while s >= 32, no bank conflict.
      return {tid < stride, tid, tid + stride};
  }
  return {};
}

/// The strides of the tree's steps in execution order, as the loops of stages 1 to 4 run
/// them: 1, 2, 4, ..., block / 2 for the interleaved schemes, block / 2, ..., 2, 1 for the
/// sequential one.
inline std::vector<unsigned> tree_strides(Addressing scheme, unsigned block) {
  std::vector<unsigned> strides;
  if (scheme == Addressing::sequential) {
    for (unsigned s = block / 2; s > 0; s >>= 1) strides.push_back(s);
  } else {
    for (unsigned s = 1; s < block; s *= 2) strides.push_back(s);
  }
  return strides;
}

}  // namespace stepwise::reduction
