// The stage list of chapter 01: each row's number, name and lesson, and its launcher.
#include "reduce_stages.hpp"

namespace stepwise::reduction {

template <class T>
const std::vector<ReduceStage<T>>& reduce_stages() {
  static const std::vector<ReduceStage<T>> stages = {
      {1, "interleaved-divergent", "interleaved addressing, `tid % (2*s) == 0`: every warp diverges",
       reduce_interleaved_divergent<T>, false, 0},
      {2, "interleaved-strided", "index = 2*s*tid: whole warps idle or busy, but shared-memory bank conflicts",
       reduce_interleaved_strided<T>, false, 0},
      {3, "sequential", "sequential addressing sdata[tid + s]: conflict free; half the threads idle from step 1",
       reduce_sequential<T>, false, 0},
      {4, "first-add", "add two elements during the global load: half the blocks, no idle first step",
       reduce_first_add<T>, false, 0},
      {5, "unroll-last-warp", "last six steps in one warp with __syncwarp: no __syncthreads, no loop",
       reduce_unroll_last_warp<T>, false, 0},
      {6, "complete-unroll", "block size as a template parameter: the whole tree unrolled at compile time",
       reduce_complete_unroll<T>, false, 0},
      {7, "multiple-per-thread", "a GPU-sized grid; each thread sums many elements before the tree",
       reduce_multiple_per_thread<T>, true, 0},
      {8, "warp-shuffle", "__shfl_down_sync inside warps: registers only, one barrier per block",
       reduce_warp_shuffle<T>, true, 0},
      {9, "vectorized", "16-byte loads, four in flight per thread, 1024-thread blocks: a quarter of the loads",
       reduce_vectorized<T>, true, 1024},
      {10, "single-pass", "one launch: the last block to finish sums the partials (atomic ticket)",
       reduce_single_pass<T>, true, 1024},
      {0, "cub::DeviceReduce::Sum", "NVIDIA's library on the same data", reduce_cub<T>, false, 0},
  };
  return stages;
}

template const std::vector<ReduceStage<std::uint32_t>>& reduce_stages<std::uint32_t>();
template const std::vector<ReduceStage<float>>& reduce_stages<float>();

}  // namespace stepwise::reduction
