/// @file analysis.hpp
/// What `--analyze` prints, without a GPU: each stage's passes, launches and key bytes (row_model),
/// the digit histogram of this very input (the keys make_keys draws for --key, --input, --n and
/// --seed, counted on the CPU for each 8-bit digit pass), and a small example replayed with the
/// functions the kernels run: one radix sort pass by pass (tile_digit_places), the look-back that
/// chains a pass's digit counts from tile to tile, and the merge sort's passes with the Merge Path
/// split of every tile (common/algorithm/merge_sort.hpp). The same numbers come as JSON
/// (`--format json`) for the diagrams of `tools/plot analysis` (tools/stepwise_plot/analysis/sort.py).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/cli.hpp"
#include "plan.hpp"

namespace stepwise::sort {

/// The most keys the digit histogram counts: beyond it, --analyze counts the first kSkewKeys keys
/// of the input (a key of uniform, entropy:K, equal and few:D depends on its index alone, so these
/// are the run's own first keys; for sorted and reversed, the first kSkewKeys keys before sorting,
/// a random sample of the same keys) and says that it sampled.
inline constexpr std::uint64_t kSkewKeys = std::uint64_t{1} << 24;

/// How one digit pass's counts fall: what decides how the pass's scatter and look-back behave.
struct DigitSkew {
  int shift = 0;              ///< the pass reads bits [shift, shift + digit bits)
  unsigned largest = 0;       ///< the digit with the most keys (the smallest such digit)
  double largest_share = 0;   ///< its share of the keys, 0 to 1
  int non_empty = 0;          ///< the digits with at least one key
  double entropy_bits = 0.0;  ///< -sum p log2 p over the digits' shares: 0 (one digit) to the digit bits
};

/// The skew of every pass of @p digit_bits bits over @p keys' ordered bits, least significant
/// first (ceil(key bits / digit_bits) passes; empty @p keys: zero shares).
template <class K>
std::vector<DigitSkew> digit_skew(const std::vector<K>& keys, int digit_bits);

/// The digit histogram of the input @p plan runs with @p n keys and @p seed.
struct InputSkew {
  std::uint64_t n = 0;        ///< the run's keys
  std::uint64_t counted = 0;  ///< the keys counted: n, or kSkewKeys when sampled
  bool sampled = false;       ///< n > kSkewKeys
  int digit_bits = 8;         ///< the digits of stages 4 and 5 and the library
  std::vector<DigitSkew> passes;
};

/// The skew of the keys make_keys draws for @p plan (--key, --input) with @p n and @p seed, as
/// kSkewKeys says.
InputSkew input_skew(const Plan& plan, std::uint64_t n, std::uint64_t seed);

/// Where one tile's keys go in one digit pass: tile_digit_places' three terms.
struct TilePlaces {
  int first = 0;                 ///< the tile's first key
  std::vector<unsigned> digits;  ///< each key's digit
  std::vector<int> ranks;        ///< each key's rank among the tile's keys of its digit
  std::vector<int> earlier;      ///< per digit, the keys of that digit in the tiles before
  std::vector<int> places;       ///< each key's output place
};

/// One pass of the example's radix sort.
struct DigitPass {
  int shift = 0;
  std::vector<std::uint32_t> input;   ///< the keys in this pass's input order
  std::vector<int> counts;            ///< the histogram: keys per digit
  std::vector<int> starts;            ///< its exclusive scan: where each digit starts in the output
  std::vector<TilePlaces> tiles;      ///< every tile's places
  std::vector<std::uint32_t> output;  ///< input[i] written to place i's slot
};

/// An LSD radix sort of @p keys (@p key_bits significant bits) in tiles of @p tile keys and digits
/// of @p digit_bits bits, pass by pass: the histogram, its scan, and every tile's places from
/// tile_digit_places (tile_places.hpp), the kernels' own function.
std::vector<DigitPass> radix_example(const std::vector<std::uint32_t>& keys, int tile, int digit_bits, int key_bits);

/// One status a look-back reads: its tile, its flag (`A`: the tile's count, `P`: the inclusive
/// count of the tiles up to it) and the value.
struct LookbackStep {
  int tile = 0;
  char flag = 'A';
  int value = 0;
};

/// The look-back of one digit pass, as Onesweep's kernels chain it (look_back_column in
/// common/device/lookback.cuh: one thread per digit walks back along its digit's column).
///
/// Every tile publishes its count of each digit as an aggregate (tile 0: as its inclusive count),
/// looks back, then publishes its inclusive count. The picture is one moment of a run: the last
/// tile has just published its aggregates and looks back; the tile before it is still looking
/// back (A in every digit); tile 0 is P; the tiles between have finished in the even digits (P)
/// and not yet in the odd ones (A). The walk of each digit adds what it reads until a P.
struct LookbackChain {
  int tile = 0;                                  ///< the tile that looks back (the last)
  std::vector<std::vector<int>> counts;          ///< [tile][digit]: the tile's keys of the digit
  std::vector<std::vector<int>> exclusive;       ///< [tile][digit]: the keys of the digit in earlier tiles
  std::vector<std::vector<int>> inclusive;       ///< [tile][digit]: exclusive + count
  std::vector<std::vector<char>> flags;          ///< [tile][digit]: `A` or `P` at that moment
  std::vector<std::vector<LookbackStep>> walks;  ///< per digit: the statuses the walk read, nearest first
  std::vector<int> prefix;                       ///< per digit: the walk's sum, the tile's exclusive count
};

/// The look-back of @p pass (its tiles, its counts) at the moment LookbackChain describes.
LookbackChain lookback_chain(const DigitPass& pass);

/// One tile of a merge pass: outputs [first, last) merged from A = keys[a_begin, a_end) and
/// B = keys[b_begin, b_end) (merge_sort_tile_range between two merge_sort_partition splits).
struct MergeTile {
  int first = 0, last = 0;
  int a_begin = 0, a_end = 0, b_begin = 0, b_end = 0;
};

/// One global pass of the example's merge sort: runs of width merged in pairs.
struct MergePass {
  int width = 0;
  std::vector<std::uint32_t> input, output;
  std::vector<int> partitions;  ///< per tile boundary, merge_sort_partition's split (global A index)
  std::vector<MergeTile> tiles;
};

/// The example's merge sort: the block sort's runs, then every pass.
struct MergeExample {
  int tile = 0;
  std::vector<std::uint32_t> keys;          ///< the input
  std::vector<std::uint32_t> block_sorted;  ///< each tile of @p tile keys sorted stably
  std::vector<MergePass> passes;
};

/// The merge sort of @p keys with tiles of @p tile keys (the first runs and the spacing of the
/// splits), pass by pass, with the kernels' functions (merge_sort_passes, merge_sort_partition,
/// merge_sort_tile_range); each tile merges its ranges with ties taking A.
MergeExample merge_example(const std::vector<std::uint32_t>& keys, int tile);

/// The small example --analyze draws: 24 keys of 6 bits.
const std::vector<std::uint32_t>& example_keys();

/// The whole `--analyze` output for @p plan: text (`--format table`) or one JSON document
/// (`--format json`): `{"analysis": "sort", "chapter": "09", "rows", "skew", "radix", "lookback",
/// "merge"}` (sort.py reads it).
/// @throws UsageError for another format.
std::string analysis(const Plan& plan, const CommonOptions& options);

}  // namespace stepwise::sort
