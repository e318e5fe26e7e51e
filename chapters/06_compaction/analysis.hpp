/// @file analysis.hpp
/// --analyze: what each stage costs on the chosen input, counted on the CPU from the same
/// elements the GPU run would keep: atomics on the output counter, passes over the input,
/// kernel launches and the bytes each stage moves. With --format json it adds, for the concept
/// diagrams of tools/plot, where the kept elements of the input go: one warp's ballot and ranks,
/// the packing of stage 3's strided tile and of stage 7's warp-sliced tile, and stage 7's
/// look-back window over the counts of the tiles before one tile. Host code only.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "host/types.hpp"
#include "plan.hpp"
#include "traits.hpp"

namespace stepwise::compaction {

/// The SM count --analyze assumes for the rows with a fixed grid of blocks per SM (an H100 SXM's).
inline constexpr int kAnalyzedSms = 132;

/// The most elements --analyze counts one by one: 2^26, about a second. Above, it counts the
/// first 2^26 and scales their shares to n, and says so.
inline constexpr std::uint64_t kMaxCountedElements = std::uint64_t{1} << 26;

/// What one stage costs on one input.
struct StageCost {
  std::string name;
  std::uint64_t counter_atomics = 0;  ///< atomics on the output counter (CounterAtomics)
  std::uint64_t ticket_atomics = 0;   ///< atomics on the tile ticket (SelectCost::ticket_per_tile)
  int input_passes = 0;               ///< times the input (or its test bytes) is read
  int launches = 0;                   ///< kernels per run
  double bytes = 0.0;                 ///< the bytes the stage moves through device memory
};

/// The costs of @p stages (the table's kernel rows, with their default shapes and their cost
/// models, SelectCost) on the input of @p plan with @p n elements drawn from @p seed; kept is set
/// to the kept count. Counted on the first kMaxCountedElements elements at most, and scaled to n
/// beyond. Atomics per warp: the 32-element groups holding a kept element; per tile: the tiles
/// holding one; counts per block: kAnalyzedSms x blocks_per_sm blocks.
std::vector<StageCost> stage_costs(const Plan& plan, std::uint64_t n, std::uint64_t seed,
                                   const std::vector<SelectRow>& stages, std::uint64_t& kept);

/// The --analyze report.
std::string analyze(const Plan& plan, std::uint64_t n, std::uint64_t seed, const std::vector<SelectRow>& stages);

/// One warp's vote, as stage 2's warp_ticket and every ballot of stages 3-8 compute it.
struct WarpBallot {
  std::uint64_t first = 0;      ///< the element of lane 0
  std::uint32_t ballot = 0;     ///< bit l: lane l's element exists and is kept (__ballot_sync)
  int voters = 0;               ///< popcount of the ballot: what the warp adds to the counter
  std::array<int, 32> ranks{};  ///< popcount(ballot & lanes below l) where lane l votes, else -1
};

/// The ballot of the 32 elements from @p first (those at or past @p n do not vote).
WarpBallot warp_ballot(const Plan& plan, std::uint64_t n, std::uint64_t seed, std::uint64_t first);

/// How stages 3-6 pack a strided tile of @p threads x @p items (compaction.cuh): at step s,
/// warp w holds elements s x threads + 32 w + lane, and TileRanks scans the (step, warp) counts
/// in that order, so each warp writes one step's kept elements to consecutive places.
struct StridedPacking {
  std::uint64_t tile = 0;                      ///< the tile's number (its first element: tile x threads x items)
  int threads = 0, items = 0, warps = 0;       ///< NT, VT (the steps) and NT / 32
  std::vector<std::vector<unsigned>> counts;   ///< [step][warp]: the popcount of that warp's ballot
  std::vector<std::vector<unsigned>> offsets;  ///< [step][warp]: the tile's kept elements before them
  unsigned total = 0;                          ///< the tile's kept elements: one atomicAdd in stage 3
};

/// The packing of tile @p tile at @p shape (threads, items), as TileRanks computes it.
StridedPacking strided_packing(const Plan& plan, std::uint64_t n, std::uint64_t seed, std::uint64_t tile,
                               const LaunchShape& shape);

/// How stages 7 and 8 pack a warp-sliced tile (tuned_tile.cuh): warp w owns the contiguous slice
/// of 32 x items elements from w x 32 x items, packs its kept elements at the front of its slice
/// of shared memory, and warp 0 scans the warps' counts into where each slice's elements start in
/// the tile's output.
struct SlicedPacking {
  std::uint64_t tile = 0;
  int threads = 0, items = 0, warps = 0, slice = 0;  ///< NT, elements per thread, NT / 32, 32 x items
  std::vector<unsigned> counts;                      ///< each warp's kept elements
  std::vector<unsigned> offsets;                     ///< the tile's kept elements before each warp's
  unsigned total = 0;
};

/// The packing of tile @p tile at @p shape (threads, items: four per 16-byte vector).
SlicedPacking sliced_packing(const Plan& plan, std::uint64_t n, std::uint64_t seed, std::uint64_t tile,
                             const LaunchShape& shape);

/// What a tile's status word holds when a lane of a look-back reads it (PackedCountStatus: the
/// count above a 2-bit flag in one 64-bit word).
enum class CountFlag { aggregate = 1, inclusive = 2 };

/// A look-back of stages 6 and 7 (common/device/lookback.cuh's look_back), replayed on the CPU over one
/// snapshot of the statuses: lane l reads tile window_end - 1 - l, the nearest lane that sees an
/// inclusive prefix ends the search, and the counts of lanes 0 .. that lane add up to the tile's
/// exclusive prefix, where its kept elements start in the output. A window without one is added
/// whole and the window moves 32 tiles back.
struct LookbackExample {
  std::uint64_t tile = 0;            ///< the tile that looks back
  std::uint64_t tile_elements = 0;   ///< elements per tile (stage 7's default: 128 x 40)
  std::uint64_t last_inclusive = 0;  ///< the snapshot: tiles up to this one have published their inclusive prefix,
                                     ///< the later ones (before tile) only their own count
  unsigned own_count = 0;            ///< the tile's own kept elements
  /// One window of 32 lanes.
  struct Window {
    std::int64_t window_end = 0;  ///< lane l read tile window_end - 1 - l
    std::array<std::int64_t, 32> tiles{};
    std::array<CountFlag, 32> flags{};  ///< what each lane saw (before tile 0: an inclusive 0)
    std::array<std::uint64_t, 32> values{};
    int nearest_inclusive = -1;  ///< the lowest lane that saw an inclusive prefix, or -1
    int folded_lanes = 32;       ///< lanes 0 .. folded_lanes - 1 were added
    std::uint64_t window_sum = 0;
    std::uint64_t prefix = 0;  ///< the exclusive prefix so far, after this window
  };
  std::vector<Window> windows;         ///< empty for tile 0, which publishes its inclusive prefix at once
  std::uint64_t exclusive_prefix = 0;  ///< where the tile's kept elements start
  std::uint64_t sequential = 0;        ///< the kept elements before the tile, counted one by one (the check)
};

/// The look-back example of the diagram: the tile that looks back is the 41st (tile 40) or the last one when there
/// are fewer, tiles of @p shape (stage 7's), counts from the input; in the snapshot the @p unresolved tiles just
/// before it have published only their counts (as when they are still looking back themselves) and every earlier one
/// its inclusive prefix (tile 0 always has: it publishes its prefix at once).
LookbackExample lookback_example(const Plan& plan, std::uint64_t n, std::uint64_t seed, const LaunchShape& shape,
                                 std::uint64_t unresolved = 5);

/// The --analyze report as JSON (--format json): the table's numbers, warp 0's ballot, and the packing and
/// look-back examples above for the rows of @p stages that draw them (SelectTraits::diagram): tile 0 of the
/// strided-tile row, tile 0 of the sliced-tile row and its look-back example.
std::string analyze_json(const Plan& plan, std::uint64_t n, std::uint64_t seed, const std::vector<SelectRow>& stages);

}  // namespace stepwise::compaction
