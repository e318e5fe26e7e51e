/// @file radix.cuh
/// Device pieces the radix stages share: the one-block exclusive scan of per-tile counts that
/// the multi-kernel passes run between their count and scatter kernels.
#pragma once

#include <cstddef>

#include "device/block.cuh"
#include "device/thread_ops.hpp"
#include "keys.hpp"

namespace stepwise::sort {

/// One block scans @p count 32-bit counts into 64-bit exclusive prefixes: @p scanned[i] is the
/// sum of counts[0..i), and scanned[count] the sum of all of them. NT counts per trip, the
/// running total carried from trip to trip.
template <int NT>
__global__ void __launch_bounds__(NT) exclusive_scan_counts(const unsigned* __restrict__ counts, std::size_t count,
                                                            unsigned long long* __restrict__ scanned) {
  using Scan = BlockScan<NT, Plus<unsigned long long>>;
  __shared__ typename Scan::Storage storage;
  unsigned long long running = 0;
  for (std::size_t first = 0; first < count; first += NT) {
    const std::size_t i = first + threadIdx.x;
    unsigned long long trip_total = 0;
    const unsigned long long before =
        Scan::exclusive_scan(i < count ? counts[i] : 0ull, trip_total, storage, Plus<unsigned long long>{});
    if (i < count) scanned[i] = running + before;
    running += trip_total;
    __syncthreads();  // the next trip rewrites the storage
  }
  if (threadIdx.x == 0) scanned[count] = running;
}

}  // namespace stepwise::sort
