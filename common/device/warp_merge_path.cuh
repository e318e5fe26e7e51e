/// @file warp_merge_path.cuh
/// Merge Path searched by a whole warp: 32 probes a step instead of one (a k-ary search with
/// k = 32), so a diagonal of L places takes about log32(L) steps, each one round trip to memory,
/// instead of merge_path's log2(L). Worth it where one search is the whole latency of a kernel
/// and the warps are few: the partition kernel of a merge pass over few tiles
/// (kernels/merge_sort_partitions.cuh). The window arithmetic is algorithm/merge_path.hpp's
/// kary_stride(), kary_probe() and kary_narrow(), which the CPU tests check against merge_path.
#pragma once

#include "algorithm/merge_path.hpp"
#include "device/warp.cuh"

namespace stepwise {

/// merge_path(@p a, @p a_count, @p b, @p b_count, @p diagonal, @p comp), found by all 32 lanes
/// of the warp together: every lane must call it with the same arguments (converged, full
/// mask) and every lane gets the answer. Each step each lane reads at most one key of A and one
/// of B; lanes whose probe lies past the window read nothing.
template <Bounds bounds = Bounds::lower, class AIt, class BIt, class Index, class Comp>
__device__ Index warp_merge_path(AIt a, Index a_count, BIt b, Index b_count, Index diagonal, Comp comp) {
  constexpr int kProbes = 32;
  const int lane = static_cast<int>(threadIdx.x % 32);
  MergePathWindow<Index> window = merge_path_window(a_count, b_count, diagonal);
  while (window.begin < window.end) {
    const Index probe = kary_probe(window, kProbes, lane);
    const bool takes_a = probe < window.end && merge_takes_a<bounds>(a[probe], b[diagonal - 1 - probe], comp);
    window = kary_narrow(window, kProbes, __popc(__ballot_sync(kFullWarp, takes_a)));
  }
  return window.begin;
}

}  // namespace stepwise
