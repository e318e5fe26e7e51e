/// @file scan_ops.hpp
/// The sums the distributed scan computes, written once for the host and the device, and the
/// offset each GPU adds to its part: the sum of the totals of the GPUs before it, in GPU order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "algorithm/hd.hpp"
#include "host/parallel.hpp"

namespace stepwise::multigpu {

/// int32 addition that wraps (two's complement), as cub::DeviceScan's int32 sum does: computed
/// on the unsigned words, so that an overflow is defined.
struct WrappingSum {
  using value_type = std::int32_t;
  STEPWISE_HD static constexpr value_type identity() { return 0; }
  STEPWISE_HD constexpr value_type operator()(value_type left, value_type right) const {
    return static_cast<value_type>(static_cast<std::uint32_t>(left) + static_cast<std::uint32_t>(right));
  }
};

/// float32 addition.
struct FloatSum {
  using value_type = float;
  STEPWISE_HD static constexpr value_type identity() { return 0.0f; }
  STEPWISE_HD constexpr value_type operator()(value_type left, value_type right) const { return left + right; }
};

/// The offset of GPU @p g: the totals of GPUs 0 .. g-1 of @p totals, summed in GPU order (the
/// identity for GPU 0).
template <class Op>
STEPWISE_HD typename Op::value_type gpu_offset(const typename Op::value_type* totals, int g, Op op = {}) {
  typename Op::value_type offset = Op::identity();
  for (int h = 0; h < g; ++h) offset = op(offset, totals[h]);
  return offset;
}

/// The inclusive scan of @p in[0, n) into @p out on the CPU, one running value: the reference.
template <class Op>
void inclusive_scan_on_cpu(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, Op op = {}) {
  typename Op::value_type running = Op::identity();
  for (std::size_t i = 0; i < n; ++i) {
    running = op(running, in[i]);
    out[i] = running;
  }
}

/// The same scan on every host core, for an associative @p op whose results do not depend on
/// the grouping (WrappingSum: exact): every chunk of kHostChunk values scans on its own, then
/// adds the total of the chunks before it. The reference of a scan of 2^32 values.
template <class Op>
void parallel_inclusive_scan_on_cpu(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n,
                                    Op op = {}) {
  using T = typename Op::value_type;
  for_each_range(n, kHostChunk, [&](std::size_t first, std::size_t last) {
    inclusive_scan_on_cpu<Op>(in + first, out + first, last - first, op);
  });
  std::vector<T> before((n + kHostChunk - 1) / kHostChunk, Op::identity());
  for (std::size_t c = 1; c < before.size(); ++c) before[c] = op(before[c - 1], out[c * kHostChunk - 1]);
  for_each_range(n, kHostChunk, [&](std::size_t first, std::size_t last) {
    const T offset = before[first / kHostChunk];
    for (std::size_t i = first; i < last; ++i) out[i] = op(offset, out[i]);
  });
}

}  // namespace stepwise::multigpu
