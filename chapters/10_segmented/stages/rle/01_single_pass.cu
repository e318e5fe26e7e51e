// Stage 1, single pass: run-length encoding as chapter 06's single-pass compaction of the run
// heads, then one kernel for the lengths.
//
// A run starts where a key differs from the key before it: those heads are the flags of a stream
// compaction (chapter 06), and a run's index is the count of heads before it. So each tile loads
// NT x VT keys (coalesced, warp-striped, then to thread order through shared memory), flags its
// heads (the key before the tile is read once per thread from global memory), counts them per
// thread, scans the counts over the block, and learns the heads of every tile before it by
// decoupled look-back (common/device/lookback.cuh's packed counts): one read of the keys. Each
// head writes its key and its position; the last tile writes the run count. A second, small
// kernel turns positions into lengths (the next run's start minus this one's). A run of a million
// equal keys costs nothing beyond its reads, and a run of one key costs one scattered write.
#include "algorithm/lookback.hpp"
#include "device/block.cuh"
#include "device/lookback.cuh"
#include "device/thread_ops.hpp"
#include "device/tile.cuh"
#include "host/check.hpp"
#include "host/dispatch.hpp"
#include "host/launch.hpp"
#include "rle.hpp"

namespace stepwise::segmented {
namespace {

using Threads = IntList<128, 256>;
using Items = IntList<7, 11>;
constexpr int kSmallestTile = 128 * 7;
constexpr unsigned kBackoffNs = 64;

template <int NT, int VT, class T>
__global__ void __launch_bounds__(NT)
    rle_heads(const T* __restrict__ keys, std::uint64_t n, T* __restrict__ unique, std::uint32_t* __restrict__ starts,
              std::int64_t* __restrict__ runs, unsigned* ticket_counter, PackedCountStatus status) {
  using Scan = BlockScan<NT, Plus<unsigned long long>>;
  constexpr int kTile = NT * VT;
  const Plus<unsigned long long> op;
  __shared__ T items[kTile];
  __shared__ typename Scan::Storage scan_storage;
  __shared__ unsigned ticket;
  __shared__ unsigned long long tile_prefix;
  if (threadIdx.x == 0) ticket = atomicAdd(ticket_counter, 1u);
  __syncthreads();
  const std::uint64_t tile = ticket;
  const std::uint64_t base = tile * kTile;
  const int count = n - base < kTile ? static_cast<int>(n - base) : kTile;
  T x[VT];
  load_warp_striped<NT, VT>(keys, base, count, T(0), x);
  warp_striped_to_thread_order<NT, VT>(x, items);
  const std::uint64_t first = base + static_cast<std::uint64_t>(threadIdx.x) * VT;
  const T previous = first > 0 && first < n ? keys[first - 1] : x[0];
  bool head[VT];
  unsigned long long heads = 0;
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    head[i] =
        static_cast<int>(threadIdx.x) * VT + i < count && (first + i == 0 || x[i] != (i == 0 ? previous : x[i - 1]));
    heads += head[i];
  }
  unsigned long long aggregate;
  const unsigned long long thread_prefix = Scan::exclusive_scan(heads, aggregate, scan_storage, op);
  if (tile == 0) {
    if (threadIdx.x == 0) {
      status.publish(0, kTileInclusive, aggregate);
      tile_prefix = 0;
    }
  } else {
    if (threadIdx.x == 0) status.publish(tile, kTileAggregate, aggregate);
    if (threadIdx.x < 32) {
      const unsigned long long before = look_back(status, tile, op, kBackoffNs);
      if (threadIdx.x == 0) {
        status.publish(tile, kTileInclusive, before + aggregate);
        tile_prefix = before;
      }
    }
  }
  __syncthreads();
  unsigned long long run = tile_prefix + thread_prefix;
#pragma unroll
  for (int i = 0; i < VT; ++i)
    if (head[i]) {
      unique[run] = x[i];
      starts[run] = static_cast<std::uint32_t>(first + i);
      ++run;
    }
  if (threadIdx.x == 0 && base + count == n) *runs = static_cast<std::int64_t>(tile_prefix + aggregate);
}

/// counts[r] = the next run's start (n after the last) minus run r's.
__global__ void run_lengths(const std::uint32_t* __restrict__ starts, const std::int64_t* __restrict__ runs,
                            std::uint32_t* __restrict__ counts, std::uint64_t n) {
  const std::uint64_t r = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint64_t total = static_cast<std::uint64_t>(*runs);
  if (r >= total) return;
  const std::uint64_t next = r + 1 < total ? starts[r + 1] : n;
  counts[r] = static_cast<std::uint32_t>(next - starts[r]);
}

template <class T>
void launch(const RleArgs<T>& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  dispatch_tile(shape, Threads{}, Items{}, [&](auto nt, auto vt) {
    constexpr int kNT = decltype(nt)::value;
    constexpr int kVT = decltype(vt)::value;
    const std::uint64_t tiles = ceil_div(args.n, kNT * kVT);
    const LookbackLayout layout = packed_lookback_layout(tiles);
    unsigned* ticket = workspace.carve<unsigned>(0, 1);
    const PackedCountStatus status{workspace.carve<unsigned long long>(layout.status_offset, tiles)};
    std::uint32_t* starts = workspace.carve<std::uint32_t>(aligned_bytes(layout.total_bytes), args.n);
    STEPWISE_CUDA_CHECK(cudaMemsetAsync(workspace.data(), 0, layout.clear_bytes, stream));
    rle_heads<kNT, kVT>
        <<<grid_of(tiles), kNT, 0, stream>>>(args.keys, args.n, args.unique, starts, args.runs, ticket, status);
    STEPWISE_CHECK_LAUNCH();
    constexpr int kThreads = 256;
    run_lengths<<<grid_of(ceil_div(args.n, kThreads)), kThreads, 0, stream>>>(starts, args.runs, args.counts, args.n);
    STEPWISE_CHECK_LAUNCH();
  });
}

WorkPlan plan(const SegmentStats&, const LaunchShape& shape) { return {WorkUnit::tile, shape.threads, shape.items}; }

}  // namespace

template <class T>
std::size_t rle_single_pass_bytes(std::uint64_t n) {
  return aligned_bytes(packed_lookback_layout(ceil_div(n, kSmallestTile)).total_bytes) +
         aligned_bytes(n * sizeof(std::uint32_t));
}

template <class T>
RleStage<T> rle_single_pass() {
  RleStage<T> stage;
  stage.name = "single-pass";
  stage.lesson = "compaction of the run heads in one pass with decoupled look-back, then the lengths";
  stage.shape = {128, 7};
  stage.sweep = tile_grid(Threads{}, Items{});
  stage.launch = launch<T>;
  stage.traits.plan = plan;
  return stage;
}

RLE_STAGE_ROWS(rle_single_pass);
SEGMENTED_FOR_EACH_TYPE(STEPWISE_KEYED_FUNCTION, std::size_t, rle_single_pass_bytes, (std::uint64_t));

}  // namespace stepwise::segmented
