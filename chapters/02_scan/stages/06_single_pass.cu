// Stage 6, single pass with decoupled look-back (Merrill & Garland, 2016).
//
// Changed from stage 5: one launch, one tile per block, and no second read of the input.
// Stage 5 must finish reducing every tile before any tile can be scanned, so it reads the
// input twice: 3n traffic. Here each tile publishes its aggregate as soon as it has it,
// looks back over its predecessors' published statuses for its exclusive prefix
// (common/lookback.cuh), publishes its inclusive prefix for the tiles behind it, and
// scans and stores: 2n traffic, a copy's. The tile is moved within each warp (__syncwarp
// instead of block barriers), and large tiles spread the fixed cost of each tile's wait on
// its predecessor: the --sweep over NT x VT picked 128 x 31 (odd VT: conflict-free
// transposes; the README's grain-size sweep shows VT = 32 paying for its 32-way conflicts).
// The README compares it with CUB, which uses the same method.
#include "dispatch.hpp"
#include "lookback.cuh"
#include "lookback.hpp"
#include "scan.cuh"
#include "scan.hpp"

namespace stepwise::scan {
namespace {

constexpr LaunchShape kShape{128, 31};

/// The tiles stage 6 is compiled for: every NT x VT of the --sweep for the sums; for the
/// affine maps (a test operator of 8-byte values) the default tile alone, and no sweep.
template <class Op>
struct CompiledTiles {
  using Threads = IntList<128, 256>;
  using Values = IntList<7, 8, 11, 12, 15, 16, 23, 24, 31, 32>;
  static constexpr bool kSweep = true;
};
template <>
struct CompiledTiles<ComposeAffine> {
  using Threads = IntList<kShape.threads>;
  using Values = IntList<kShape.items>;
  static constexpr bool kSweep = false;
};

/// One pass, one tile per block. Tiles are numbered by an atomic ticket, not blockIdx: the
/// hardware may start blocks in any order, and a block spinning on a predecessor that has
/// not started would wait forever; a ticket is only drawn by a running block, so every
/// smaller ticket belongs to a block that is already running. The tile is loaded and
/// transposed within each warp (no block barrier), reduced (as in stage 5), its aggregate
/// published at once, and warp 0 looks back for the exclusive prefix while the other warps
/// wait at the barrier; the inclusive prefix is then published for the tiles behind, and
/// the tile is scanned and stored. Each element is read once and written once: 2n traffic.
/// (A persistent grid that draws the next tile's ticket while working on the current one
/// measured slower (README): a drawn ticket whose tile is not yet loaded publishes nothing,
/// and every later tile's look-back spins on it. A ticket must be drawn just before its
/// tile's loads. With @p speculative, the loads of the likely tile go out together with the
/// ticket's atomic instead of after it.)
template <int NT, int VT, class Op, class Status>
__global__ void __launch_bounds__(NT)
    single_pass_scan(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n,
                     unsigned* ticket_counter, Status status, bool exclusive, unsigned backoff_ns, bool speculative,
                     unsigned guess_shift) {
  using T = typename Op::value_type;
  using Scan = BlockScan<NT, Op>;
  constexpr int kTileItems = NT * VT;
  static_assert(VT >= 1 && VT <= 32, "VT must be in [1, 32]");
  const Op op;
  __shared__ T items[kTileItems];
  __shared__ typename Scan::Storage scan_storage;  // not aliased: warps leave their transposes at different times
  __shared__ unsigned ticket;
  __shared__ T tile_prefix;
  const auto tile_count = [n](std::size_t base) {
    return n - base < kTileItems ? static_cast<int>(n - base) : kTileItems;
  };
  unsigned drawn = 0;
  if (threadIdx.x == 0) drawn = atomicAdd(ticket_counter, 1u);
  // While the ticket's round trip to L2 is in flight, load the tile this block will most
  // likely draw: blocks start in blockIdx order almost always, so ticket == blockIdx.x is
  // the usual case. The tile number is still the ticket; a wrong guess only costs a reload.
  // (guess_shift = 1 makes every guess wrong: the tests use it to run the reload path.)
  T x[VT];
  const std::size_t guess = (blockIdx.x + guess_shift) % gridDim.x;
  if (speculative) load_warp_striped<NT, VT>(in, guess * kTileItems, tile_count(guess * kTileItems), Op::identity(), x);
  if (threadIdx.x == 0) ticket = drawn;
  __syncthreads();
  const std::size_t tile = ticket;
  const std::size_t base = tile * kTileItems;
  const int count = tile_count(base);
  if (!speculative || tile != guess) load_warp_striped<NT, VT>(in, base, count, Op::identity(), x);
  warp_striped_to_thread_order<NT, VT>(x, items);
  T aggregate;
  const T thread_prefix = Scan::exclusive_scan(thread_reduce<VT>(x, op), aggregate, scan_storage, op);

  T prefix = Op::identity();
  if (tile == 0) {
    if (threadIdx.x == 0) status.publish(0, kTileInclusive, aggregate);
  } else {
    if (threadIdx.x == 0) status.publish(tile, kTileAggregate, aggregate);
    if (threadIdx.x < 32) {
      const T exclusive_prefix = look_back(status, tile, op, backoff_ns);
      if (threadIdx.x == 0) {
        status.publish(tile, kTileInclusive, op(exclusive_prefix, aggregate));
        tile_prefix = exclusive_prefix;
      }
    }
    __syncthreads();
    prefix = tile_prefix;
  }
  thread_scan<VT>(x, op(prefix, thread_prefix), exclusive, op);
  store_thread_order_by_warp<NT, VT>(out, base, count, x, items);
}

/// One compiled tile shape: clear the ticket and the tile statuses (part of every run, as
/// in CUB, so each timed repetition is a fresh scan), then one launch with one block per tile.
template <int NT, int VT, class Op>
void launch_tiles(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n,
                  const ScanOptions& options, ScanWorkspace& workspace, cudaStream_t stream) {
  using T = typename Op::value_type;
  static_assert(NT * VT >= kMinSinglePassItems, "the workspace holds statuses for tiles of kMinSinglePassItems");
  workspace.require(n, sizeof(T));
  if (n == 0) return;
  constexpr int kTileItems = NT * VT;
  const std::size_t tiles = (n + kTileItems - 1) / kTileItems;
  const LookbackLayout layout = lookback_layout(tiles, sizeof(T));
  unsigned char* bytes = static_cast<unsigned char*>(workspace.data());
  STEPWISE_CUDA_CHECK(cudaMemsetAsync(bytes, 0, layout.clear_bytes, stream));
  auto* ticket = reinterpret_cast<unsigned*>(bytes);
  const bool exclusive = options.kind == ScanKind::exclusive;
  if constexpr (sizeof(T) == 4) {
    const PackedTileStatus<T> status{reinterpret_cast<unsigned long long*>(bytes + layout.status_offset)};
    const unsigned grid = grid_of(tiles);
    single_pass_scan<NT, VT, Op><<<grid, NT, 0, stream>>>(in, out, n, ticket, status, exclusive, options.backoff_ns,
                                                          options.speculative, options.guess_shift);
  } else {
    const FlaggedTileStatus<T> status{reinterpret_cast<std::uint32_t*>(bytes + layout.status_offset),
                                      reinterpret_cast<T*>(bytes + layout.aggregates_offset),
                                      reinterpret_cast<T*>(bytes + layout.inclusives_offset)};
    const unsigned grid = grid_of(tiles);
    single_pass_scan<NT, VT, Op><<<grid, NT, 0, stream>>>(in, out, n, ticket, status, exclusive, options.backoff_ns,
                                                          options.speculative, options.guess_shift);
  }
  STEPWISE_CHECK_LAUNCH();
}

template <class Op>
void launch(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, const ScanOptions& options,
            ScanWorkspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  using Tiles = CompiledTiles<Op>;
  dispatch(shape.threads, typename Tiles::Threads{}, "threads per block", [&](auto threads) {
    dispatch(shape.items, typename Tiles::Values{}, "values per thread", [&](auto values) {
      launch_tiles<decltype(threads)::value, decltype(values)::value, Op>(in, out, n, options, workspace, stream);
    });
  });
}

}  // namespace

template <class Op>
ScanStage<Op> single_pass() {
  using Tiles = CompiledTiles<Op>;
  ScanStage<Op> stage;
  stage.name = "single-pass";
  stage.lesson = "decoupled look-back: one pass, 2n traffic, tiles chained through published prefixes";
  stage.shape = kShape;
  if constexpr (Tiles::kSweep) stage.sweep = shape_grid(Tiles::Threads::values(), Tiles::Values::values());
  stage.launch = launch<Op>;
  return stage;
}

template ScanStage<WrappingAdd> single_pass<WrappingAdd>();
template ScanStage<FloatAdd> single_pass<FloatAdd>();
template ScanStage<ComposeAffine> single_pass<ComposeAffine>();

}  // namespace stepwise::scan
