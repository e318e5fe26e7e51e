// Stage 7, single pass with decoupled look-back (Merrill & Garland, 2016).
//
// Changed from stage 6: one launch, one tile per block, and no second read of the input.
// Stage 6 must finish reducing every tile before any tile can be scanned, so it reads the
// input twice: 3n traffic. Here each tile publishes its aggregate as soon as it has it,
// looks back over its predecessors' published statuses for its exclusive prefix
// (common/device/lookback.cuh), publishes its inclusive prefix for the tiles behind it, and
// scans and stores: 2n traffic, a copy's. The tile is moved within each warp (__syncwarp
// instead of block barriers), and large tiles spread the fixed cost of each tile's wait on
// its predecessor. The default, 128 x 28 with a first poll 1245 ns after the aggregate is
// published, is what measured fastest against CUB on an H100 at 2^24 and 2^28 (README):
// VT = 28 reads a thread's values as seven LDS.128, an odd number of 16-byte vectors, so
// conflict-free like an odd VT of 32-bit words; the delay is CUB's own for 4-byte sums on
// sm_90 (its L2 write latency), and without it this tile is 3% slower than CUB at 2^24.
// At VT = 16, 24 and 32 the compiler's LDS.128 pay 4-, 2- and 8-way conflicts, not
// gcd(VT, 32)-way (--analyze gives both models; the README lists which width each compiled
// tile gets). A block draws its ticket, then loads that tile: loading tile blockIdx.x while the
// ticket's atomic is in flight (--speculative-load) was 5-7 % slower on an H100 at 2^20 and 2^24
// elements and equal at 2^28, because tickets come out of block order so often that most
// guesses reload their tile (chapter 06 counts the reloads). The README compares the stage with
// CUB, which uses the same method.
#include <stdexcept>
#include <string>

#include "algorithm/lookback.hpp"
#include "algorithm/shared_budget.hpp"
#include "device/lookback.cuh"
#include "host/dispatch.hpp"
#include "scan.cuh"
#include "scan.hpp"

namespace stepwise::scan {
namespace {

constexpr LaunchShape kShape{128, 28};

/// Whether a tile of @p nt x @p vt values of @p value_bytes fits the static shared memory beside
/// the block scan's warp totals, the ticket and the prefix (common/algorithm/shared_budget.hpp).
constexpr bool tile_fits(int nt, int vt, std::size_t value_bytes) {
  return stepwise::tile_fits(static_cast<std::size_t>(nt) * static_cast<std::size_t>(vt), value_bytes);
}

/// The tiles stage 7 is compiled for: every NT x VT of these lists whose tile fits the static
/// shared memory (512 threads: VT <= 23), for the sums; for the affine maps (a test operator
/// of 8-byte values) the default tile alone, and no sweep. VT = 20 and 28 read a thread's
/// values as 5 and 7 128-bit vectors: with --vector-transpose, conflict-free (an odd number of
/// vectors, as an odd VT is with 32-bit words).
template <class Op>
struct CompiledTiles {
  using Threads = IntList<128, 256, 512>;
  using Values = IntList<7, 8, 11, 12, 15, 16, 20, 23, 24, 28, 31, 32>;
  static constexpr bool kSweep = true;
};
template <>
struct CompiledTiles<ComposeAffine> {
  using Threads = IntList<kShape.threads>;
  using Values = IntList<kShape.items>;
  static constexpr bool kSweep = false;
};

/// common's warp_striped_to_thread_order (tile.cuh) with its thread-order side read with
/// @p Access: Access == compiler is warp_striped_to_thread_order itself.
template <ThreadOrderAccess Access, int NT, int VT, class T>
__device__ __forceinline__ void warp_to_thread_order(T (&x)[VT], T* shared) {
  if constexpr (Access == ThreadOrderAccess::compiler) {
    warp_striped_to_thread_order<NT, VT>(x, shared);
  } else {
    const int lane = threadIdx.x % 32;
    T* slice = shared + tile::warp_slice_begin(threadIdx.x / 32, VT);
#pragma unroll
    for (int i = 0; i < VT; ++i) slice[tile::warp_striped_slot(i, lane)] = x[i];
    __syncwarp();
    read_thread_values<Access>(slice + tile::thread_order_slot(lane, 0, VT), x);
    __syncwarp();
  }
}

/// common's store_thread_order_by_warp with its thread-order side written with @p Access.
template <ThreadOrderAccess Access, int NT, int VT, class T>
__device__ __forceinline__ void store_by_warp(T* out, std::size_t base, int count, const T (&x)[VT], T* shared) {
  if constexpr (Access == ThreadOrderAccess::compiler) {
    store_thread_order_by_warp<NT, VT>(out, base, count, x, shared);
  } else {
    T* slice = shared + tile::warp_slice_begin(threadIdx.x / 32, VT);
    write_thread_values<Access>(slice + tile::thread_order_slot(threadIdx.x % 32, 0, VT), x);
    __syncwarp();
    store_warp_striped_from_slice<NT, VT>(out, base, count, shared);
  }
}

/// One pass, one tile per block. Tiles are numbered by an atomic ticket, not blockIdx: the
/// hardware may start blocks in any order, and a block spinning on a predecessor that has
/// not started would wait forever; a ticket is only drawn by a running block, so every
/// smaller ticket belongs to a block that is already running. The tile is loaded and
/// transposed within each warp (no block barrier), reduced (as in stage 6), its aggregate
/// published at once, and warp 0 looks back for the exclusive prefix (after sleeping
/// @p first_poll_ns, if not 0) while the other warps wait at the barrier; the inclusive prefix
/// is then published for the tiles behind, and the tile is scanned and stored. Each element is
/// read once and written once: 2n traffic.
/// (A persistent grid that draws the next tile's ticket while working on the current one
/// measured slower (README): a drawn ticket whose tile is not yet loaded publishes nothing,
/// and every later tile's look-back spins on it. A ticket must be drawn just before its
/// tile's loads. With @p speculative, the loads of the likely tile go out together with the
/// ticket's atomic instead of after it.)
template <int NT, int VT, class Op, ThreadOrderAccess Access, class Status>
__global__ void __launch_bounds__(NT)
    single_pass_scan(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n,
                     unsigned* ticket_counter, Status status, bool exclusive, unsigned backoff_ns,
                     unsigned first_poll_ns, bool speculative, unsigned guess_shift) {
  using T = typename Op::value_type;
  using Scan = BlockScan<NT, Op>;
  constexpr int kTileItems = NT * VT;
  // 128-bit accesses need a 16-byte-aligned buffer; the other kernels keep the alignment of T.
  constexpr std::size_t kItemsAlignment = Access == ThreadOrderAccess::vector ? 16 : alignof(T);
  static_assert(VT >= 1 && VT <= 32, "VT must be in [1, 32]");
  const Op op;
  __shared__ alignas(kItemsAlignment) T items[kTileItems];
  __shared__ typename Scan::Storage scan_storage;  // not aliased: warps leave their transposes at different times
  __shared__ unsigned ticket;
  __shared__ T tile_prefix;
  const auto tile_count = [n](std::size_t base) {
    return n - base < kTileItems ? static_cast<int>(n - base) : kTileItems;
  };
  unsigned drawn = 0;
  if (threadIdx.x == 0) drawn = atomicAdd(ticket_counter, 1u);
  // With --speculative-load, load tile blockIdx.x while the ticket's round trip to L2 is in
  // flight. The tile number is still the ticket, and a wrong guess costs a reload: on an H100
  // tickets come out of block order so often that most guesses are wrong (README).
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
  warp_to_thread_order<Access, NT, VT>(x, items);
  T aggregate;
  const T thread_prefix = Scan::exclusive_scan(thread_reduce<VT>(x, op), aggregate, scan_storage, op);

  T prefix = Op::identity();
  if (tile == 0) {
    if (threadIdx.x == 0) status.publish(0, kTileInclusive, aggregate);
  } else {
    if (threadIdx.x == 0) status.publish(tile, kTileAggregate, aggregate);
    if (threadIdx.x < 32) {
      if (first_poll_ns != 0) __nanosleep(first_poll_ns);  // let the predecessors publish first
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
  store_by_warp<Access, NT, VT>(out, base, count, x, items);
}

/// One compiled tile shape and access: clear the ticket and the tile statuses (part of every
/// run, as in CUB, so each timed repetition is a fresh scan), then one launch with one block
/// per tile.
template <int NT, int VT, class Op, ThreadOrderAccess Access>
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
  const unsigned grid = grid_of(tiles);
  if constexpr (sizeof(T) == 4) {
    const PackedTileStatus<T> status{reinterpret_cast<unsigned long long*>(bytes + layout.status_offset)};
    single_pass_scan<NT, VT, Op, Access><<<grid, NT, 0, stream>>>(in, out, n, ticket, status, exclusive,
                                                                  options.backoff_ns, options.first_poll_ns,
                                                                  options.speculative, options.guess_shift);
  } else {
    const FlaggedTileStatus<T> status{reinterpret_cast<std::uint32_t*>(bytes + layout.status_offset),
                                      reinterpret_cast<T*>(bytes + layout.aggregates_offset),
                                      reinterpret_cast<T*>(bytes + layout.inclusives_offset)};
    single_pass_scan<NT, VT, Op, Access><<<grid, NT, 0, stream>>>(in, out, n, ticket, status, exclusive,
                                                                  options.backoff_ns, options.first_poll_ns,
                                                                  options.speculative, options.guess_shift);
  }
  STEPWISE_CHECK_LAUNCH();
}

template <class Op>
void launch(const typename Op::value_type* in, typename Op::value_type* out, std::size_t n, const ScanOptions& options,
            ScanWorkspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  using T = typename Op::value_type;
  using Tiles = CompiledTiles<Op>;
  dispatch_tile(
      shape, typename Tiles::Threads{}, typename Tiles::Values{},
      [&](auto nt, auto vt) {
        constexpr int NT = decltype(nt)::value;
        constexpr int VT = decltype(vt)::value;
        if constexpr (!tile_fits(NT, VT, sizeof(T))) {
          throw std::invalid_argument("tile " + describe(shape) + " is not compiled: its " +
                                      std::to_string(NT * VT * sizeof(T)) +
                                      " bytes do not fit the static shared memory");
        } else if constexpr (sizeof(T) == 4 && VT % 4 == 0) {
          if (options.vector_transpose)
            launch_tiles<NT, VT, Op, ThreadOrderAccess::vector>(in, out, n, options, workspace, stream);
          else
            launch_tiles<NT, VT, Op, ThreadOrderAccess::compiler>(in, out, n, options, workspace, stream);
        } else {
          launch_tiles<NT, VT, Op, ThreadOrderAccess::compiler>(in, out, n, options, workspace, stream);
        }
      },
      "threads per block", "values per thread");
}

/// The shapes --sweep tries: every compiled NT x VT whose tile fits.
template <class Op>
std::vector<LaunchShape> compiled_sweep() {
  using Tiles = CompiledTiles<Op>;
  std::vector<LaunchShape> shapes;
  if constexpr (Tiles::kSweep)
    for (const LaunchShape& shape : tile_grid(typename Tiles::Threads{}, typename Tiles::Values{}))
      if (tile_fits(shape.threads, shape.items, sizeof(typename Op::value_type))) shapes.push_back(shape);
  return shapes;
}

}  // namespace

template <class Op>
ScanStage<Op> single_pass() {
  ScanStage<Op> stage;
  stage.name = "single-pass";
  stage.lesson = "decoupled look-back: one pass, 2n traffic, tiles chained through published prefixes";
  stage.shape = kShape;
  stage.sweep = compiled_sweep<Op>();
  // its tile, its look-back, its transposes' shared accesses
  stage.options = {"--nt", "--vt", "--backoff-ns", "--first-poll-ns", "--speculative-load", "--vector-transpose"};
  stage.launch = launch<Op>;
  return stage;
}

SCAN_STAGE_ROWS(single_pass);

}  // namespace stepwise::scan
