// Stage 2, single pass: a scan of (flag, value) pairs with decoupled look-back, n items in one
// read and one write whatever the segments.
//
// Changed from stage 1: the unit of work is a tile of NT x VT consecutive items, not a segment.
// Each item becomes a pair: a flag, set where its segment id differs from the item before's (the
// first item of a segment), and its value. flagged.hpp's operator (f1, v1) . (f2, v2) = (f1 |
// f2, f2 ? v2 : v1 + v2) is associative, so the pairs scan exactly as chapter 02's single-pass
// scan scans numbers: each thread reduces its VT pairs, BlockScan scans the threads, and the
// tile learns the pairs of every tile before it by decoupled look-back (common/device/
// lookback.cuh), in one pass. It is not commutative, and nothing here needs it to be: every
// combination keeps the earlier items on the left. A segment of a million items is shared by
// many tiles, an empty one costs nothing, and the loads and stores are coalesced (warp-striped,
// through shared memory). The price: the segment ids are read beside the values (4 more bytes
// per item: the flags could also come from the offsets by a load-balancing search), and the
// pairs are twice as wide as the values through the block scan and the look-back.
#include "algorithm/lookback.hpp"
#include "device/block.cuh"
#include "device/lookback.cuh"
#include "device/thread_ops.hpp"
#include "device/tile.cuh"
#include "flagged.hpp"
#include "host/dispatch.hpp"
#include "segreduce.cuh"
#include "segscan.hpp"

namespace stepwise::segmented {
namespace {

using Threads = IntList<128, 256>;
using Items = IntList<7, 11>;
/// The smallest tile compiled: it sizes the statuses in the workspace.
constexpr int kSmallestTile = 128 * 7;
/// How long a look-back warp sleeps before polling a predecessor that has published nothing.
constexpr unsigned kBackoffNs = 64;

template <class T>
using Pair = Flagged<Accum<T>>;

template <int NT, int VT, class T>
__global__ void __launch_bounds__(NT)
    segscan_single_pass(const T* __restrict__ values, const std::uint32_t* __restrict__ ids, T* __restrict__ out,
                        std::uint64_t n, unsigned* ticket_counter, FlaggedTileStatus<Pair<T>> status) {
  using Op = FlaggedPlus<Accum<T>>;
  using Scan = BlockScan<NT, Op>;
  constexpr int kTile = NT * VT;
  const Op op;
  __shared__ T items[kTile];
  __shared__ std::uint32_t keys[kTile];
  __shared__ typename Scan::Storage scan_storage;
  __shared__ unsigned ticket;
  __shared__ Pair<T> tile_prefix;
  if (threadIdx.x == 0) ticket = atomicAdd(ticket_counter, 1u);
  __syncthreads();
  const std::uint64_t tile = ticket;  // tiles in the order they started: the look-back never waits on an idle one
  const std::uint64_t base = tile * kTile;
  const int count = n - base < kTile ? static_cast<int>(n - base) : kTile;
  T x[VT];
  std::uint32_t k[VT];
  load_warp_striped<NT, VT>(values, base, count, T(0), x);
  warp_striped_to_thread_order<NT, VT>(x, items);
  load_warp_striped<NT, VT>(ids, base, count, 0u, k);
  warp_striped_to_thread_order<NT, VT>(k, keys);
  const std::uint64_t first = base + static_cast<std::uint64_t>(threadIdx.x) * VT;
  const std::uint32_t previous = first > 0 && first < n ? ids[first - 1] : 0u;
  Pair<T> p[VT];
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    const bool head = first + i == 0 || k[i] != (i == 0 ? previous : k[i - 1]);
    p[i] = static_cast<int>(threadIdx.x) * VT + i < count ? Pair<T>{head ? 1u : 0u, static_cast<Accum<T>>(x[i])}
                                                          : Op::identity();
  }
  Pair<T> aggregate;
  const Pair<T> thread_prefix = Scan::exclusive_scan(thread_reduce<VT>(p, op), aggregate, scan_storage, op);
  Pair<T> prefix = Op::identity();
  if (tile == 0) {
    if (threadIdx.x == 0) status.publish(0, kTileInclusive, aggregate);
  } else {
    if (threadIdx.x == 0) status.publish(tile, kTileAggregate, aggregate);
    if (threadIdx.x < 32) {
      const Pair<T> exclusive = look_back(status, tile, op, kBackoffNs);
      if (threadIdx.x == 0) {
        status.publish(tile, kTileInclusive, op(exclusive, aggregate));
        tile_prefix = exclusive;
      }
    }
    __syncthreads();
    prefix = tile_prefix;
  }
  thread_scan<VT>(p, op(prefix, thread_prefix), false, op);
  T y[VT];
#pragma unroll
  for (int i = 0; i < VT; ++i) y[i] = to_value<T>(p[i].value);
  store_thread_order_by_warp<NT, VT>(out, base, count, y, items);
}

template <class T>
void launch(const SegScanArgs<T>& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  dispatch_tile(shape, Threads{}, Items{}, [&](auto nt, auto vt) {
    constexpr int kNT = decltype(nt)::value;
    constexpr int kVT = decltype(vt)::value;
    const std::uint64_t tiles = ceil_div(args.n, kNT * kVT);
    const LookbackLayout layout = lookback_layout(tiles, sizeof(Pair<T>));
    unsigned* ticket = workspace.carve<unsigned>(0, 1);
    FlaggedTileStatus<Pair<T>> status{workspace.carve<std::uint32_t>(layout.status_offset, tiles),
                                      workspace.carve<Pair<T>>(layout.aggregates_offset, tiles),
                                      workspace.carve<Pair<T>>(layout.inclusives_offset, tiles)};
    STEPWISE_CUDA_CHECK(cudaMemsetAsync(workspace.data(), 0, layout.clear_bytes, stream));
    segscan_single_pass<kNT, kVT>
        <<<grid_of(tiles), kNT, 0, stream>>>(args.values, args.segment_ids, args.out, args.n, ticket, status);
    STEPWISE_CHECK_LAUNCH();
  });
}

WorkPlan plan(const SegmentStats&, const LaunchShape& shape) { return {WorkUnit::tile, shape.threads, shape.items}; }

}  // namespace

template <class T>
std::size_t single_pass_scan_bytes(std::uint64_t n) {
  return lookback_layout(ceil_div(n, kSmallestTile), sizeof(Pair<T>)).total_bytes;
}

template <class T>
SegScanStage<T> segscan_single_pass() {
  SegScanStage<T> stage;
  stage.name = "single-pass";
  stage.lesson = "a scan of (flag, value) pairs with decoupled look-back: one pass whatever the segments";
  stage.shape = {128, 7};
  stage.sweep = tile_grid(Threads{}, Items{});
  stage.launch = launch<T>;
  stage.traits.plan = plan;
  return stage;
}

SEGSCAN_STAGE_ROWS(segscan_single_pass);
SEGMENTED_FOR_EACH_TYPE(STEPWISE_KEYED_FUNCTION, std::size_t, single_pass_scan_bytes, (std::uint64_t));

}  // namespace stepwise::segmented
