// Stage 7, tuned single pass: the tile loaded while its ticket is drawn, 16-byte loads, and the
// kept elements staged in shared memory so that every store is coalesced (ordered).
//
// Changed from stage 6, three things. First, the loads no longer wait for the ticket: a block
// loads tile blockIdx.x while its ticket's atomic is in flight (blocks start in blockIdx order
// almost always, so the guess is almost always right; a wrong guess costs a reload), which
// takes one L2 round trip off every tile's life, as in chapter 02's single-pass scan. Second,
// each thread loads its elements four at a time (one 16-byte load of keys, and of values with a
// payload; one 4-byte load of four flags): a warp's load moves 512 bytes instead of 128. Third,
// the two-phase scatter: four consecutive elements now belong to one lane, so a warp's direct
// stores would each touch many partly written sectors; instead each kept element goes to its
// rank in a shared-memory copy of the tile's output while warp 0 is still looking back, and once
// the prefix is known the block copies that run to global memory with consecutive threads on
// consecutive addresses. The default shape is what --sweep measured fastest on an H100 (README);
// the last tile's ragged end is loaded element by element.
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

/// Loads tile @p base's @p count elements: thread t's vector s holds elements 4 (s NT + t) ..
/// 4 (s NT + t) + 3 of the tile, and bit c of @p kept_bits[s] says whether component c is kept.
template <int NT, int VECTORS, class Selector, class K>
__device__ __forceinline__ void load_vector_tile(const Selector& selector, std::size_t base, int count,
                                                 Element<K> (&x)[VECTORS][4], unsigned (&kept_bits)[VECTORS]) {
#pragma unroll
  for (int s = 0; s < VECTORS; ++s) {
    const int first = 4 * (s * NT + static_cast<int>(threadIdx.x));
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
  using Ranks = TileRanks<NT, VECTORS>;
  constexpr int kTile = NT * VECTORS * 4;
  static_assert(tile_fits(kTile, sizeof(K) + (Selector::kPayload ? sizeof(Payload) : 0)), "the tile must fit");
  __shared__ typename Ranks::Storage storage;
  __shared__ K staged_keys[kTile];
  __shared__ Payload staged_values[Selector::kPayload ? kTile : 1];
  __shared__ unsigned ticket;
  __shared__ unsigned long long tile_prefix;
  const auto tile_count = [n](std::size_t base) { return n - base < kTile ? static_cast<int>(n - base) : kTile; };
  unsigned drawn = 0;
  if (threadIdx.x == 0) drawn = atomicAdd(ticket_counter, 1u);
  // While the ticket's round trip to L2 is in flight, load the tile this block will most likely
  // draw. The tile is still the ticket's; a wrong guess only costs a reload.
  Element<K> x[VECTORS][4];
  unsigned kept_bits[VECTORS];
  const std::size_t guess = (blockIdx.x + guess_shift) % gridDim.x;
  if (speculative) load_vector_tile<NT, VECTORS>(selector, guess * kTile, tile_count(guess * kTile), x, kept_bits);
  if (threadIdx.x == 0) ticket = drawn;
  __syncthreads();
  const std::size_t tile = ticket;
  const std::size_t base = tile * kTile;
  const int count = tile_count(base);
  if (!speculative || tile != guess) load_vector_tile<NT, VECTORS>(selector, base, count, x, kept_bits);

  // Ranks: four ballots per step (one per component), the step offsets from TileRanks.
  unsigned offsets[VECTORS], lane_ranks[VECTORS];
  const unsigned below = lanes_below();
#pragma unroll
  for (int s = 0; s < VECTORS; ++s) {
    offsets[s] = 0;
    lane_ranks[s] = 0;
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      const unsigned voters = __ballot_sync(kFullWarp, (kept_bits[s] >> c) & 1u);
      offsets[s] += static_cast<unsigned>(__popc(voters));
      lane_ranks[s] += static_cast<unsigned>(__popc(voters & below));
    }
  }
  const unsigned total = Ranks::exclusive_offsets(offsets, storage);
  if (threadIdx.x == 0) status.publish(tile, tile == 0 ? kTileInclusive : kTileAggregate, total);

    // Phase 1 of the scatter, which needs no prefix: each kept element to its rank in the tile.
#pragma unroll
  for (int s = 0; s < VECTORS; ++s) {
    unsigned rank = offsets[s] + lane_ranks[s];
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      if ((kept_bits[s] >> c) & 1u) {
        staged_keys[rank] = x[s][c].key;
        if constexpr (Selector::kPayload) staged_values[rank] = x[s][c].value;
        ++rank;
      }
    }
  }
  if (threadIdx.x < 32) {
    unsigned long long before = 0;
    if (tile != 0) {
      if (first_poll_ns != 0) __nanosleep(first_poll_ns);
      before = look_back(status, tile, Plus<unsigned long long>{}, kBackoffNs);
      if (threadIdx.x == 0) status.publish(tile, kTileInclusive, before + total);
    }
    if (threadIdx.x == 0) tile_prefix = before;
  }
  __syncthreads();
  const unsigned long long prefix = tile_prefix;
  if (threadIdx.x == 0 && base + count == n) *kept_count = prefix + total;
  // Phase 2: the tile's kept elements, consecutive threads to consecutive addresses.
  for (unsigned j = threadIdx.x; j < total; j += NT) {
    selector.kept_keys[prefix + j] = staged_keys[j];
    if constexpr (Selector::kPayload) selector.kept_values[prefix + j] = staged_values[j];
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
