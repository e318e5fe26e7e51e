/// @file merge_checks.hpp
/// The GPU checks of chapter 03's merge rows, which test_merge_gpu.cpp runs on every row of the
/// merge table (variant rows included) and the grader of exercise 03-4 on the student's stage:
/// either array empty, |A| = 1 with |B| = 2^24 (and the reverse), every tile size of the table
/// +- 1 split three ways, every distribution of keys (ties, skews, all equal), every shape of a
/// stage's --sweep at its tile edges; keys and key-value pairs, fresh random seeds, outputs
/// poisoned first, checked exactly (values too: an unstable tie shows), nothing written outside
/// any buffer. Each check takes a list of rows, so that one input serves them all.
#pragma once

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gpu_checks.hpp"
#include "host/check.hpp"
#include "host/data.hpp"
#include "host/device_buffer.hpp"
#include "inputs.hpp"
#include "merge.hpp"

namespace stepwise::testing {

/// (|A|, |B|) pairs a check runs at.
using SizePairs = std::vector<std::pair<std::size_t, std::size_t>>;

/// Every key distribution the chapter draws.
inline constexpr merge::Distribution kMergeDistributions[] = {
    merge::Distribution::uniform, merge::Distribution::duplicates, merge::Distribution::equal,
    merge::Distribution::disjoint, merge::Distribution::interleaved};

/// The outputs a row's tile covers (threads x items; 0 for rows without a tile).
inline std::size_t tile_items(const LaunchShape& shape) {
  return static_cast<std::size_t>(shape.threads) * static_cast<std::size_t>(shape.items);
}

/// Totals around a tile of @p nv outputs (nv - 1, nv, nv + 1, 3 nv + 5), each split three ways:
/// all in A, all in B, and about 1 : 2.
inline void add_tile_edges(std::set<std::pair<std::size_t, std::size_t>>& sizes, std::size_t nv) {
  if (nv == 0) return;
  for (std::size_t total : {nv - 1, nv, nv + 1, 3 * nv + 5})
    for (std::size_t a : {std::size_t{0}, total, total / 3}) sizes.insert({a, total - a});
}

/// Sizes every merge and search row runs at: either array empty, one element against 2^24, tile
/// edges of every row's shape in @p table, and larger odd sizes.
template <class Table>
SizePairs edge_sizes(const Table& table) {
  std::set<std::pair<std::size_t, std::size_t>> sizes = {{0, 0},
                                                         {0, 1},
                                                         {1, 0},
                                                         {1, 1},
                                                         {0, 1000},
                                                         {1000, 0},
                                                         {2, 3},
                                                         {31, 33},
                                                         {1, std::size_t{1} << 24},
                                                         {std::size_t{1} << 24, 1},
                                                         {(std::size_t{1} << 20) + 1, (std::size_t{1} << 20) + 3},
                                                         {999983, 1000003}};
  for (const auto& stage : table) add_tile_edges(sizes, tile_items(stage.shape));
  return {sizes.begin(), sizes.end()};
}

/// The rows of @p K's merge table, each stage followed by its variant rows.
template <class K>
std::vector<merge::MergeStage<K>> merge_rows() {
  return with_variants(merge::merge_stages<K>());
}

/// The sizes of the merge table's edge check: edge_sizes() of every row of the table, whichever
/// rows run there.
template <class K>
SizePairs merge_edge_sizes() {
  return edge_sizes(merge_rows<K>());
}

/// The sizes the distribution check runs at, for each distribution.
inline const SizePairs& merge_distribution_sizes() {
  static const SizePairs sizes = {{1, 1}, {100003, 77777}, {3, 200000}, {200000, 3}, {(1u << 20) + 1, (1u << 18) - 1}};
  return sizes;
}

/// The sizes a shape of a --sweep runs at: an odd size, and its tile edges.
inline SizePairs merge_sweep_sizes(const LaunchShape& shape) {
  std::set<std::pair<std::size_t, std::size_t>> sizes = {{100003, 99991}};
  add_tile_edges(sizes, tile_items(shape));
  return {sizes.begin(), sizes.end()};
}

/// One merge input with its reference, and the device buffers the rows run on.
template <class K>
struct MergeCase {
  std::uint64_t seed;
  bool pairs;
  merge::SortedArrays<K> keys;
  std::vector<merge::Value> a_values, b_values;
  std::vector<K> want_keys;
  std::vector<merge::Value> want_values;
  DeviceBuffer<K> a, b, out;
  DeviceBuffer<merge::Value> a_device_values, b_device_values, out_values;
  Workspace workspace;

  MergeCase(std::size_t na, std::size_t nb, merge::Distribution distribution, bool pairs_, std::uint64_t seed_)
      : seed(seed_),
        pairs(pairs_),
        keys(merge::sorted_arrays<K>(na, nb, distribution, seed)),
        a_values(pairs ? merge::pair_values(0, na, seed) : std::vector<merge::Value>()),
        b_values(pairs ? merge::pair_values(na, nb, seed) : std::vector<merge::Value>()),
        want_keys(na + nb),
        want_values(pairs ? na + nb : 0),
        a(keys.a),
        b(keys.b),
        out(na + nb),
        a_device_values(a_values),
        b_device_values(b_values),
        out_values(pairs ? na + nb : 0),
        workspace(merge::make_merge_workspace<K>(na, nb, pairs)) {
    merge::merge_reference(keys.a, a_values, keys.b, b_values, want_keys, want_values);
  }

  /// Enqueues @p stage at @p shape on this input, on @p stream.
  void launch(const merge::MergeStage<K>& stage, const LaunchShape& shape, cudaStream_t stream = nullptr) {
    stage.launch(a.data(), pairs ? a_device_values.data() : nullptr, b.data(), pairs ? b_device_values.data() : nullptr,
                 out.data(), pairs ? out_values.data() : nullptr, keys.a.size(), keys.b.size(), workspace, shape,
                 stream);
  }
};

/// One checked run of @p stage at @p shape on @p merge_case: outputs poisoned, the merge checked
/// exactly (keys and values), the guard zones checked. @return whether it passed.
template <class K>
bool check_merge_row(const merge::MergeStage<K>& stage, const LaunchShape& shape, MergeCase<K>& merge_case,
                     merge::Distribution distribution) {
  CAPTURE(stage.name);
  CAPTURE(stage.variant);
  CAPTURE(describe(shape));
  CAPTURE(merge_case.keys.a.size());
  CAPTURE(merge_case.keys.b.size());
  CAPTURE(merge_case.pairs);
  CAPTURE(std::string(to_string(distribution)));
  CAPTURE(merge_case.seed);
  poison(merge_case.out);
  if (merge_case.pairs) poison(merge_case.out_values);
  merge_case.launch(stage, shape);
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
  const Check check = merge::check_merge(
      merge_case.out.download(), merge_case.pairs ? merge_case.out_values.download() : std::vector<merge::Value>(),
      merge_case.want_keys, merge_case.want_values);
  CHECK_MESSAGE(check.passed, check.detail);
  const bool clean = check_no_stray_writes();
  return check.passed && clean;
}

/// Every row of @p rows at its default shape on @p sizes, keys and pairs: one input per size
/// and kind, shared by the rows.
template <class K>
Tally merge_rows_at(const std::vector<merge::MergeStage<K>>& rows, const SizePairs& sizes,
                    merge::Distribution distribution) {
  Tally tally;
  for (const auto& [na, nb] : sizes)
    for (bool pairs : {false, true}) {
      MergeCase<K> merge_case(na, nb, distribution, pairs, fresh_seed());
      for (const merge::MergeStage<K>& stage : rows)
        tally.add(check_merge_row(stage, stage.shape, merge_case, distribution));
    }
  return tally;
}

/// @p rows at every size of merge_edge_sizes(), uniform keys, keys and pairs.
template <class K>
Tally check_merge_edge_sizes(const std::vector<merge::MergeStage<K>>& rows) {
  return merge_rows_at<K>(rows, merge_edge_sizes<K>(), merge::Distribution::uniform);
}

/// @p rows for every distribution at every size of merge_distribution_sizes(), keys and pairs.
template <class K>
Tally check_merge_distributions(const std::vector<merge::MergeStage<K>>& rows) {
  Tally tally;
  for (merge::Distribution distribution : kMergeDistributions)
    tally.add(merge_rows_at<K>(rows, merge_distribution_sizes(), distribution));
  return tally;
}

/// Each of @p stages at every shape of its --sweep, at merge_sweep_sizes() of the shape, keys and
/// pairs (duplicated keys for an odd |A|, uniform ones otherwise).
template <class K>
Tally check_merge_sweep_shapes(const std::vector<merge::MergeStage<K>>& stages) {
  Tally tally;
  for (const merge::MergeStage<K>& stage : stages)
    for (const LaunchShape& shape : stage.sweep)
      for (const auto& [na, nb] : merge_sweep_sizes(shape))
        for (bool pairs : {false, true}) {
          const merge::Distribution distribution =
              na % 2 ? merge::Distribution::duplicates : merge::Distribution::uniform;
          MergeCase<K> merge_case(na, nb, distribution, pairs, fresh_seed());
          tally.add(check_merge_row(stage, shape, merge_case, distribution));
        }
  return tally;
}

}  // namespace stepwise::testing
