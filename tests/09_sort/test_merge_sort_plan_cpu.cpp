// CPU tests of the tiled merge sort's plan (common/algorithm/merge_sort.hpp), which the merge
// stages' kernels call: the pass count, the pairs of runs, and a whole sort replayed on the
// host exactly as the kernels cut it (tiles sorted first, then every pass's partitions and tile
// ranges, each tile merged on its own into its output positions), compared with
// std::stable_sort, ties included. Keys with many duplicates, sizes that are and are not
// multiples of the tile, tiles that are not powers of two. No GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "algorithm/merge_sort.hpp"

using namespace stepwise;

namespace {

/// A key and its input position: the position tells whether ties kept their order.
struct Item {
  std::uint32_t key = 0;
  std::int64_t position = 0;
};

struct KeyLess {
  bool operator()(const Item& a, const Item& b) const { return a.key < b.key; }
};

/// Sorts @p items as the merge-sort stages do: runs of @p first_run sorted, then passes cut into
/// tiles of @p spacing outputs. Checks every tile's ranges on the way.
std::vector<Item> replay_merge_sort(std::vector<Item> items, std::int64_t first_run, std::int64_t spacing) {
  const auto n = static_cast<std::int64_t>(items.size());
  for (std::int64_t first = 0; first < n; first += first_run)
    std::stable_sort(items.begin() + first, items.begin() + std::min(first + first_run, n), KeyLess{});
  const int passes = merge_sort_passes(n, first_run);
  int passes_run = 0;
  for (std::int64_t width = first_run; width < n; width *= 2, ++passes_run) {
    const std::int64_t tiles = (n + spacing - 1) / spacing;
    std::vector<std::int64_t> partitions(static_cast<std::size_t>(tiles + 1));
    for (std::int64_t p = 0; p <= tiles; ++p)
      partitions[static_cast<std::size_t>(p)] = merge_sort_partition(items.data(), n, width, spacing, p, KeyLess{});
    std::vector<Item> out(items.size());
    for (std::int64_t t = 0; t < tiles; ++t) {
      const MergeRange<std::int64_t> range = merge_sort_tile_range(
          n, width, spacing, t, partitions[static_cast<std::size_t>(t)], partitions[static_cast<std::size_t>(t + 1)]);
      const std::int64_t first = t * spacing;
      const MergeRange<std::int64_t> pair = merge_sort_pair(n, width, first);
      REQUIRE(range.count() == std::min(spacing, n - first));
      REQUIRE(range.a_begin >= pair.a_begin);
      REQUIRE(range.a_end <= pair.a_end);
      REQUIRE(range.b_begin >= pair.b_begin);
      REQUIRE(range.b_end <= pair.b_end);
      std::merge(items.begin() + range.a_begin, items.begin() + range.a_end, items.begin() + range.b_begin,
                 items.begin() + range.b_end, out.begin() + first, KeyLess{});
    }
    items = out;
  }
  CHECK(passes_run == passes);
  return items;
}

void check_sorts(std::size_t n, std::uint32_t distinct, std::int64_t first_run, std::int64_t spacing,
                 std::uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<Item> items(n);
  for (std::size_t i = 0; i < n; ++i) items[i] = {7 + static_cast<std::uint32_t>(random() % distinct), std::int64_t(i)};
  std::vector<Item> expected = items;
  std::stable_sort(expected.begin(), expected.end(), KeyLess{});
  const std::vector<Item> sorted = replay_merge_sort(items, first_run, spacing);
  REQUIRE(sorted.size() == expected.size());
  for (std::size_t i = 0; i < n; ++i) {
    CAPTURE(i);
    REQUIRE(sorted[i].key == expected[i].key);
    REQUIRE(sorted[i].position == expected[i].position);
  }
}

}  // namespace

TEST_CASE("merge_sort_passes: ceil(log2(runs)) passes after the first runs") {
  CHECK(merge_sort_passes<std::int64_t>(1, 1) == 0);
  CHECK(merge_sort_passes<std::int64_t>(1, 1920) == 0);
  CHECK(merge_sort_passes<std::int64_t>(1920, 1920) == 0);
  CHECK(merge_sort_passes<std::int64_t>(1921, 1920) == 1);
  CHECK(merge_sort_passes<std::int64_t>(3 * 1920, 1920) == 2);
  CHECK(merge_sort_passes<std::int64_t>(4 * 1920, 1920) == 2);
  CHECK(merge_sort_passes<std::int64_t>((std::int64_t{1} << 20) + 1, 896) == 11);
  CHECK(merge_sort_passes<std::int64_t>(1000, 1) == 10);
}

TEST_CASE("merge_sort_pair: the two runs around an output, the last one unpaired") {
  const MergeRange<std::int64_t> middle = merge_sort_pair<std::int64_t>(100, 10, 35);
  CHECK(middle.a_begin == 20);
  CHECK(middle.a_end == 30);
  CHECK(middle.b_begin == 30);
  CHECK(middle.b_end == 40);
  const MergeRange<std::int64_t> short_b = merge_sort_pair<std::int64_t>(95, 10, 91);
  CHECK(short_b.a_end == 90);
  CHECK(short_b.b_end == 95);
  const MergeRange<std::int64_t> unpaired = merge_sort_pair<std::int64_t>(85, 10, 81);
  CHECK(unpaired.a_begin == 80);
  CHECK(unpaired.a_end == 85);
  CHECK(unpaired.b_count() == 0);
}

TEST_CASE("merge_sort_partition: the A keys before a boundary, ties to A") {
  // Runs of 4: [1 2 2 9] [2 2 3 4]; merged: 1 2a 2a 2b 2b 3 4 9 (ties take the first run).
  const std::uint32_t keys[] = {1, 2, 2, 9, 2, 2, 3, 4};
  const auto less = [](std::uint32_t a, std::uint32_t b) { return a < b; };
  CHECK(merge_sort_partition(keys, std::int64_t{8}, std::int64_t{4}, std::int64_t{2}, std::int64_t{0}, less) == 0);
  CHECK(merge_sort_partition(keys, std::int64_t{8}, std::int64_t{4}, std::int64_t{2}, std::int64_t{1}, less) == 2);
  CHECK(merge_sort_partition(keys, std::int64_t{8}, std::int64_t{4}, std::int64_t{2}, std::int64_t{2}, less) == 3);
  CHECK(merge_sort_partition(keys, std::int64_t{8}, std::int64_t{4}, std::int64_t{2}, std::int64_t{3}, less) == 3);
  CHECK(merge_sort_partition(keys, std::int64_t{8}, std::int64_t{4}, std::int64_t{2}, std::int64_t{4}, less) == 8);
}

TEST_CASE("a merge sort replayed from the plan is std::stable_sort, ties in input order") {
  std::uint32_t seed = 1;
  for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{31}, std::size_t{1000},
                        std::size_t{4097}, std::size_t{3 * 1920}, std::size_t{20000}})
    for (std::uint32_t distinct : {1u, 5u, 1000000u})  // 1: every key equal (7)
      for (const auto& [first_run, spacing] :
           std::vector<std::pair<std::int64_t, std::int64_t>>{{1, 1}, {15, 15}, {30, 15}, {1920, 1920}, {896, 128}}) {
        CAPTURE(n);
        CAPTURE(distinct);
        CAPTURE(first_run);
        CAPTURE(spacing);
        check_sorts(n, distinct, first_run, spacing, seed++);
      }
}
