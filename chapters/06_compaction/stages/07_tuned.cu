// Stage 7, tuned single pass: the tile loaded while its ticket is drawn, 16-byte loads, and the
// kept elements staged in shared memory so that every store is coalesced (ordered).
//
// Changed from stage 6, three things. First, the loads no longer wait for the ticket: a block
// loads tile blockIdx.x while its ticket's atomic is in flight (blocks start in blockIdx order
// almost always, so the guess is almost always right; a wrong guess costs a reload), which
// takes one L2 round trip off every tile's life, as in chapter 02's single-pass scan. Second,
// each thread loads its elements four at a time (one 16-byte load of keys, and of values with a
// payload; one 4-byte load of four flags), and each warp owns a contiguous slice of the tile
// (warp-striped, as chapter 02's tiles), so a warp's load moves 512 consecutive bytes. Third,
// the two-phase scatter: each warp packs its kept elements at the front of its slice of shared
// memory as soon as its ballots give the ranks, with no block barrier and no block-wide scan of
// step counts, so the registers holding the tile are free before anyone waits; warp 0 then scans
// the warps' counts, publishes and looks back, and the block copies the packed elements out with
// consecutive threads on consecutive addresses. The default shape is what --sweep measured
// fastest on an H100 (README); the last tile's ragged end is loaded element by element.
#include <stdexcept>
#include <string>
#include <vector>

#include "check.hpp"
#include "compaction.cuh"
#include "dispatch.hpp"
#include "launch.hpp"
#include "lookback.cuh"
#include "lookback.hpp"

namespace stepwise::compaction {
namespace {

constexpr unsigned kBackoffNs = 0;

/// Loads this warp's slice of tile @p base (@p count elements in the tile): warp w owns the
/// 32 x VECTORS x 4 consecutive elements from w x 32 x VECTORS x 4; at step s, lane l holds
/// elements 4 (32 s + l) .. 4 (32 s + l) + 3 of the slice (each step one 512-byte load per warp).
/// Bit c of @p kept_bits[s] says whether component c exists and is kept.
template <int NT, int VECTORS, class Selector, class K>
__device__ __forceinline__ void load_warp_slice(const Selector& selector, std::size_t base, int count,
                                                Element<K> (&x)[VECTORS][4], unsigned (&kept_bits)[VECTORS]) {
  const int slice = static_cast<int>(threadIdx.x / 32) * 32 * VECTORS * 4;
  const int lane = static_cast<int>(threadIdx.x % 32);
#pragma unroll
  for (int s = 0; s < VECTORS; ++s) {
    const int first = slice + 4 * (32 * s + lane);
    if (first + 4 <= count) {
      selector.load4(base + first, x[s]);
    } else {
#pragma unroll
      for (int c = 0; c < 4; ++c)
        if (first + c < count) x[s][c] = selector.load(base + first + c);
    }
    kept_bits[s] = 0;
#pragma unroll
    for (int c = 0; c < 4; ++c)
      if (first + c < count && selector.keeps(x[s][c])) kept_bits[s] |= 1u << c;
  }
}

/// Static shared memory a kernel may declare (48 KB): the staged keys and values take all but
/// the ranks' storage and a few words (under 1 KB).
constexpr std::size_t kStaticSharedBytes = 48 * 1024;
constexpr std::size_t kOtherSharedBytes = 1024;

/// Whether a tile of @p items elements of @p element_bytes (key, and value) fits in static
/// shared memory.
__host__ __device__ constexpr bool tile_fits(int items, std::size_t element_bytes) {
  return static_cast<std::size_t>(items) * element_bytes + kOtherSharedBytes <= kStaticSharedBytes;
}

/// VECTORS vectors of 4 elements per thread, one tile per block, the tile number a ticket.
template <int NT, int VECTORS, class Selector>
__global__ void __launch_bounds__(NT)
    select_tuned(Selector selector, std::size_t n, unsigned* ticket_counter, PackedCountStatus status,
                 unsigned long long* kept_count, unsigned first_poll_ns, bool speculative, unsigned guess_shift) {
  using K = typename Selector::Key;
  constexpr int kWarps = NT / 32;
  constexpr int kSlice = 32 * VECTORS * 4;
  constexpr int kTile = NT * VECTORS * 4;
  static_assert(NT % 32 == 0 && kWarps <= 32, "NT must be a multiple of 32, at most 1024");
  static_assert(tile_fits(kTile, sizeof(K) + (Selector::kPayload ? sizeof(Payload) : 0)), "the tile must fit");
  __shared__ K staged_keys[kTile];
  __shared__ Payload staged_values[Selector::kPayload ? kTile : 1];
  __shared__ unsigned warp_kept[kWarps];  // each warp's kept count, then the kept before it
  __shared__ unsigned ticket;
  __shared__ unsigned tile_total;
  __shared__ unsigned long long tile_prefix;
  const auto tile_count = [n](std::size_t base) { return n - base < kTile ? static_cast<int>(n - base) : kTile; };
  const int warp = static_cast<int>(threadIdx.x / 32);
  const int lane = static_cast<int>(threadIdx.x % 32);
  unsigned drawn = 0;
  if (threadIdx.x == 0) drawn = atomicAdd(ticket_counter, 1u);
  // While the ticket's round trip to L2 is in flight, load the tile this block will most likely
  // draw. The tile is still the ticket's; a wrong guess only costs a reload.
  Element<K> x[VECTORS][4];
  unsigned kept_bits[VECTORS];
  const std::size_t guess = (blockIdx.x + guess_shift) % gridDim.x;
  if (speculative) load_warp_slice<NT, VECTORS>(selector, guess * kTile, tile_count(guess * kTile), x, kept_bits);
  if (threadIdx.x == 0) ticket = drawn;
  __syncthreads();
  const std::size_t tile = ticket;
  const std::size_t base = tile * kTile;
  const int count = tile_count(base);
  if (!speculative || tile != guess) load_warp_slice<NT, VECTORS>(selector, base, count, x, kept_bits);

  // Phase 1, warp by warp and without a block barrier: the warp packs its kept elements, in
  // order, at the front of its own slice of shared memory (four ballots per step give each
  // lane its rank), so the registers holding the tile are free before anyone waits.
  K* slice_keys = staged_keys + warp * kSlice;
  Payload* slice_values = staged_values + (Selector::kPayload ? warp * kSlice : 0);
  const unsigned below = lanes_below();
  unsigned packed = 0;  // the same in every lane
#pragma unroll
  for (int s = 0; s < VECTORS; ++s) {
    unsigned rank = packed;
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      const unsigned voters = __ballot_sync(kFullWarp, (kept_bits[s] >> c) & 1u);
      packed += static_cast<unsigned>(__popc(voters));
      rank += static_cast<unsigned>(__popc(voters & below));
    }
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      if ((kept_bits[s] >> c) & 1u) {
        slice_keys[rank] = x[s][c].key;
        if constexpr (Selector::kPayload) slice_values[rank] = x[s][c].value;
        ++rank;
      }
    }
  }
  if (lane == 0) warp_kept[warp] = packed;
  __syncthreads();

  // Warp 0: the warps' counts scanned, the tile's count published, the look-back.
  if (warp == 0) {
    const unsigned mine = lane < kWarps ? warp_kept[lane] : 0u;
    const unsigned inclusive = warp_inclusive_scan(mine, Plus<unsigned>{});
    const unsigned total = shuffle_index(inclusive, 31);
    if (lane < kWarps) warp_kept[lane] = inclusive - mine;
    if (lane == 0) status.publish(tile, tile == 0 ? kTileInclusive : kTileAggregate, total);
    unsigned long long before = 0;
    if (tile != 0) {
      if (first_poll_ns != 0) __nanosleep(first_poll_ns);
      before = look_back(status, tile, Plus<unsigned long long>{}, kBackoffNs);
      if (lane == 0) status.publish(tile, kTileInclusive, before + total);
    }
    if (lane == 0) {
      tile_prefix = before;
      tile_total = total;
      if (base + count == n) *kept_count = before + total;
    }
  }
  __syncthreads();

  // Phase 2: the tile's kept elements, consecutive threads to consecutive addresses; element g
  // of the tile's output is in the slice of the last warp whose kept elements start at or before g.
  const unsigned long long prefix = tile_prefix;
  const unsigned total = tile_total;
  for (unsigned g = threadIdx.x; g < total; g += NT) {
    int owner = 0;
#pragma unroll
    for (int w = 1; w < kWarps; ++w)
      if (warp_kept[w] <= g) owner = w;
    const int slot = owner * kSlice + static_cast<int>(g - warp_kept[owner]);
    selector.kept_keys[prefix + g] = staged_keys[slot];
    if constexpr (Selector::kPayload) selector.kept_values[prefix + g] = staged_values[slot];
  }
}

using Threads = IntList<128, 256>;
using Items = IntList<16, 24, 32, 40>;

/// The sweep: every compiled NT x items whose tile fits with a payload.
std::vector<LaunchShape> compiled_sweep() {
  std::vector<LaunchShape> shapes;
  for (const LaunchShape& shape : shape_grid(Threads::values(), Items::values()))
    if (tile_fits(shape.threads * shape.items, sizeof(std::int32_t) + sizeof(Payload))) shapes.push_back(shape);
  return shapes;
}

/// One compiled shape: clear the ticket and the statuses, then one block per tile.
template <int NT, int VECTORS, class K>
void launch_tiles(const SelectArgs<K>& args, Workspace& workspace, cudaStream_t stream) {
  static_assert(NT * VECTORS * 4 >= kMinLookbackTile, "the workspace holds statuses for tiles of kMinLookbackTile");
  if (args.n == 0) {
    STEPWISE_CUDA_CHECK(cudaMemsetAsync(args.kept_count, 0, sizeof(*args.kept_count), stream));
    return;
  }
  const std::size_t tiles = ceil_div(args.n, NT * VECTORS * 4);
  const LookbackLayout layout = packed_lookback_layout(tiles);
  workspace.require(layout.total_bytes);
  STEPWISE_CUDA_CHECK(cudaMemsetAsync(workspace.data(), 0, layout.clear_bytes, stream));
  auto* ticket = reinterpret_cast<unsigned*>(workspace.data());
  const PackedCountStatus status{reinterpret_cast<unsigned long long*>(workspace.data() + layout.status_offset)};
  with_selector(args, [&](auto selector) {
    constexpr std::size_t kElementBytes = sizeof(K) + (decltype(selector)::kPayload ? sizeof(Payload) : 0);
    if constexpr (!tile_fits(NT * VECTORS * 4, kElementBytes)) {
      throw std::invalid_argument("tile " + std::to_string(NT) + "x" + std::to_string(VECTORS * 4) +
                                  " is not compiled: its elements do not fit the static shared memory");
    } else {
      select_tuned<NT, VECTORS><<<grid_of(tiles), NT, 0, stream>>>(
          selector, args.n, ticket, status, args.kept_count, args.first_poll_ns, args.speculative, args.guess_shift);
      STEPWISE_CHECK_LAUNCH();
    }
  });
}

template <class K>
void launch(const SelectArgs<K>& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  require_aligned(args.keys, 16);
  require_aligned(args.values, 16);
  require_aligned(args.flags, 4);
  dispatch(shape.threads, Threads{}, "threads per block", [&](auto threads) {
    dispatch(shape.items, Items{}, "elements per thread", [&](auto items) {
      constexpr int NT = decltype(threads)::value;
      constexpr int kVectors = decltype(items)::value / 4;
      launch_tiles<NT, kVectors>(args, workspace, stream);
    });
  });
}

}  // namespace

template <class K>
SelectStage<K> tuned() {
  SelectStage<K> stage;
  stage.name = "tuned";
  stage.lesson = "the tile loaded while its ticket is drawn, 16-byte loads, stores staged in shared memory";
  stage.shape = {128, 32};
  stage.sweep = compiled_sweep();
  stage.launch = launch<K>;
  return stage;
}

template SelectStage<std::int32_t> tuned<std::int32_t>();
template SelectStage<float> tuned<float>();

}  // namespace stepwise::compaction
