#include <cuda_runtime.h>

#include <cstddef>

#include "device.hpp"
#include "scan_launch.cuh"

namespace stepwise::scan {
namespace {

using detail::grid_of;

/// Stages 1 and 2: scan each block of ITEMS elements, scan the block totals by the same
/// method (recursively, until one block holds them all), and add them back. Levels of
/// totals are stacked in the workspace; every level is enqueued without a host sync.
template <class Op, int ITEMS, class BlockScanLaunch, class AddLaunch>
void scan_then_propagate(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, bool exclusive,
                         typename Op::value_type* totals, BlockScanLaunch block_scan, AddLaunch add_prefixes) {
  if (n == 0) return;
  const std::size_t blocks = (n + ITEMS - 1) / ITEMS;
  if (blocks == 1) {
    block_scan(in, out, n, nullptr, exclusive, 1u);
    return;
  }
  block_scan(in, out, n, totals, exclusive, grid_of(blocks));
  scan_then_propagate<Op, ITEMS>(totals, totals, blocks, true, totals + blocks, block_scan, add_prefixes);
  add_prefixes(out, n, totals, grid_of(blocks));
}

constexpr int kHillisSteeleThreads = 256;
constexpr int kBlellochThreads = 256;

/// Reduce-then-scan, stages 3-5: a grid as large as the GPU holds at once (at most
/// kMaxReduceBlocks), each block owning a contiguous run of tiles.
template <int NT, int VT, class Op, class BlockScan>
void reduce_then_scan(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, ScanKind kind,
                      ScanWorkspace& workspace, cudaStream_t stream) {
  using T = typename Op::value_type;
  workspace.require(n, sizeof(T));
  if (n == 0) return;
  static int resident_blocks = 0;  // per instantiation; cached so timed runs make no occupancy queries
  if (resident_blocks == 0) {
    int per_sm = 0;
    STEPWISE_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernels::scan_tiles<NT, VT, Op, BlockScan>, NT, 0));
    resident_blocks = per_sm * current_sm_count();
  }
  constexpr int kTileItems = NT * VT;
  const std::size_t tiles = (n + kTileItems - 1) / kTileItems;
  const std::size_t max_blocks =
      static_cast<std::size_t>(resident_blocks < kMaxReduceBlocks ? resident_blocks : kMaxReduceBlocks);
  const std::size_t tiles_per_block = (tiles + max_blocks - 1) / max_blocks;
  const std::size_t blocks = (tiles + tiles_per_block - 1) / tiles_per_block;
  T* block_totals = static_cast<T*>(workspace.data());
  kernels::reduce_tiles<NT, VT, Op, BlockScan>
      <<<grid_of(blocks), NT, 0, stream>>>(in, n, tiles_per_block, block_totals);
  STEPWISE_CHECK_LAUNCH();
  kernels::scan_spine<NT, Op, BlockScan><<<1, NT, 0, stream>>>(block_totals, static_cast<int>(blocks));
  STEPWISE_CHECK_LAUNCH();
  kernels::scan_tiles<NT, VT, Op, BlockScan>
      <<<grid_of(blocks), NT, 0, stream>>>(in, out, n, tiles_per_block, block_totals, kind == ScanKind::exclusive);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

template <class Op>
void scan_hillis_steele(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, ScanKind kind,
                        ScanWorkspace& workspace, cudaStream_t stream) {
  using T = typename Op::value_type;
  constexpr int NT = kHillisSteeleThreads;
  workspace.require(n, sizeof(T));
  scan_then_propagate<Op, NT>(
      in, out, n, kind == ScanKind::exclusive, static_cast<T*>(workspace.data()),
      [stream](const T* from, T* to, std::size_t count, T* totals, bool exclusive, unsigned grid) {
        kernels::hillis_steele_block_scan<NT, Op><<<grid, NT, 0, stream>>>(from, to, count, totals, exclusive);
        STEPWISE_CHECK_LAUNCH();
      },
      [stream](T* to, std::size_t count, const T* prefixes, unsigned grid) {
        kernels::add_block_prefixes<NT, NT, Op><<<grid, NT, 0, stream>>>(to, count, prefixes);
        STEPWISE_CHECK_LAUNCH();
      });
}

template <class Op>
void scan_blelloch(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, ScanKind kind,
                   ScanWorkspace& workspace, cudaStream_t stream) {
  using T = typename Op::value_type;
  constexpr int NT = kBlellochThreads;
  workspace.require(n, sizeof(T));
  scan_then_propagate<Op, 2 * NT>(
      in, out, n, kind == ScanKind::exclusive, static_cast<T*>(workspace.data()),
      [stream](const T* from, T* to, std::size_t count, T* totals, bool exclusive, unsigned grid) {
        kernels::blelloch_block_scan<NT, Op><<<grid, NT, 0, stream>>>(from, to, count, totals, exclusive);
        STEPWISE_CHECK_LAUNCH();
      },
      [stream](T* to, std::size_t count, const T* prefixes, unsigned grid) {
        kernels::add_block_prefixes<NT, 2 * NT, Op><<<grid, NT, 0, stream>>>(to, count, prefixes);
        STEPWISE_CHECK_LAUNCH();
      });
}

template <class Op>
void scan_reduce_then_scan_even(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n,
                                ScanKind kind, ScanWorkspace& workspace, cudaStream_t stream) {
  reduce_then_scan<kEvenShape.nt, kEvenShape.vt, Op, kernels::LadderBlockScan<kEvenShape.nt, Op>>(in, out, n, kind,
                                                                                                  workspace, stream);
}

template <class Op>
void scan_reduce_then_scan_odd(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n,
                               ScanKind kind, ScanWorkspace& workspace, cudaStream_t stream) {
  reduce_then_scan<kOddShape.nt, kOddShape.vt, Op, kernels::LadderBlockScan<kOddShape.nt, Op>>(in, out, n, kind,
                                                                                               workspace, stream);
}

template <class Op>
void scan_reduce_then_scan_shuffle(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n,
                                   ScanKind kind, ScanWorkspace& workspace, cudaStream_t stream) {
  reduce_then_scan<kOddShape.nt, kOddShape.vt, Op, kernels::ShuffleBlockScan<kOddShape.nt, Op>>(in, out, n, kind,
                                                                                                workspace, stream);
}

template <class Op>
void scan_single_pass(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, ScanKind kind,
                      ScanWorkspace& workspace, cudaStream_t stream) {
  detail::launch_single_pass<kSinglePassShape.nt, kSinglePassShape.vt, Op>(in, out, n, kind, workspace,
                                                                           kSinglePassShape, stream);
}

#define STEPWISE_SCAN_INSTANTIATE(OP)                                                                                 \
  template void scan_hillis_steele<OP>(const OP::value_type*, OP::value_type*, std::size_t, ScanKind, ScanWorkspace&, \
                                       cudaStream_t);                                                                 \
  template void scan_blelloch<OP>(const OP::value_type*, OP::value_type*, std::size_t, ScanKind, ScanWorkspace&,      \
                                  cudaStream_t);                                                                      \
  template void scan_reduce_then_scan_even<OP>(const OP::value_type*, OP::value_type*, std::size_t, ScanKind,         \
                                               ScanWorkspace&, cudaStream_t);                                         \
  template void scan_reduce_then_scan_odd<OP>(const OP::value_type*, OP::value_type*, std::size_t, ScanKind,          \
                                              ScanWorkspace&, cudaStream_t);                                          \
  template void scan_reduce_then_scan_shuffle<OP>(const OP::value_type*, OP::value_type*, std::size_t, ScanKind,      \
                                                  ScanWorkspace&, cudaStream_t);                                      \
  template void scan_single_pass<OP>(const OP::value_type*, OP::value_type*, std::size_t, ScanKind, ScanWorkspace&,   \
                                     cudaStream_t);

STEPWISE_SCAN_INSTANTIATE(WrappingAdd)
STEPWISE_SCAN_INSTANTIATE(FloatAdd)
STEPWISE_SCAN_INSTANTIATE(ComposeAffine)

}  // namespace stepwise::scan
