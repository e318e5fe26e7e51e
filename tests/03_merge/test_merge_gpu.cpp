// GPU tests of chapter 03: every row of every table (merge int32 and int64, keys and pairs;
// sorted search, both bounds; load-balancing search) at the sizes where merge bugs live: either
// array empty, |A| = 1 with |B| = 2^24 (and the reverse), every tile size +- 1 split several
// ways, all-equal keys, every distribution, fresh random seeds, outputs poisoned first, checked
// exactly (values too: an unstable tie shows), nothing written outside any buffer; every shape
// of every --sweep at its tile edges; a merge past 2^31 outputs, and the search and the
// load-balancing search at their int32 limits, where memory allows; and the launch checks. A new
// stage is tested with no edit here, and so is a stage's variant row (stage.hpp's with_variants):
// every merge test but the 2^31 one runs the variant rows too. The merge checks are
// merge_checks.hpp's, which the grader of exercise 03-4 runs on the student's stage.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "algorithm/load_balance.hpp"
#include "algorithm/sorted_search.hpp"
#include "host/data.hpp"
#include "host/device.hpp"
#include "host/device_buffer.hpp"
#include "host/host_memory.hpp"
#include "host/sizes.hpp"
#include "inputs.hpp"
#include "merge.hpp"
#include "merge_checks.hpp"

using namespace stepwise;
using namespace stepwise::merge;
using namespace stepwise::testing;

namespace {

// ---------------------------------------------------------------------------------------------
// sorted search

template <class K>
struct SearchCase {
  std::uint64_t seed;
  SortedArrays<K> keys;
  std::vector<std::int32_t> lower, upper;
  DeviceBuffer<K> needles, haystack;
  DeviceBuffer<std::int32_t> out;
  Workspace workspace;

  SearchCase(std::size_t na, std::size_t nb, Distribution distribution, std::uint64_t seed_)
      : seed(seed_),
        keys(sorted_arrays<K>(na, nb, distribution, seed)),
        lower(na),
        upper(na),
        needles(keys.a),
        haystack(keys.b),
        out(na),
        workspace(partition_workspace_bytes(na + nb)) {
    sorted_search<Bounds::lower>(keys.a.data(), na, keys.b.data(), nb, lower.data(), Less{});
    sorted_search<Bounds::upper>(keys.a.data(), na, keys.b.data(), nb, upper.data(), Less{});
  }
};

template <class K>
void check_search_row(const SearchStage<K>& stage, const LaunchShape& shape, SearchCase<K>& search_case, Bounds bounds,
                      Distribution distribution) {
  CAPTURE(stage.name);
  CAPTURE(describe(shape));
  CAPTURE(search_case.keys.a.size());
  CAPTURE(search_case.keys.b.size());
  CAPTURE(bounds == Bounds::upper ? "upper" : "lower");
  CAPTURE(std::string(to_string(distribution)));
  CAPTURE(search_case.seed);
  poison(search_case.out);
  stage.launch(search_case.needles.data(), search_case.haystack.data(), search_case.out.data(),
               search_case.keys.a.size(), search_case.keys.b.size(), bounds, search_case.workspace, shape, nullptr);
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
  const Check check =
      compare_exact(search_case.out.download(), bounds == Bounds::upper ? search_case.upper : search_case.lower);
  CHECK_MESSAGE(check.passed, check.detail);
  check_no_stray_writes();
}

template <class K>
void search_rows_at(const SizePairs& sizes, Distribution distribution) {
  for (const auto& [na, nb] : sizes) {
    SearchCase<K> search_case(na, nb, distribution, fresh_seed());
    for (const SearchStage<K>& stage : search_stages<K>())
      for (Bounds bounds : {Bounds::lower, Bounds::upper})
        check_search_row(stage, stage.shape, search_case, bounds, distribution);
  }
}

// ---------------------------------------------------------------------------------------------
// load-balancing search

struct LbsCase {
  std::uint64_t seed;
  std::size_t items;
  std::vector<std::int32_t> offsets, want_objects, want_ranks;
  DeviceBuffer<std::int32_t> offsets_device, objects, ranks;
  Workspace workspace;

  LbsCase(std::size_t object_count, std::size_t item_count, Distribution distribution, std::uint64_t seed_)
      : seed(seed_),
        items(item_count),
        offsets(lbs_offsets(object_count, item_count, distribution, seed)),
        want_objects(item_count),
        want_ranks(item_count),
        offsets_device(offsets),
        objects(item_count),
        ranks(item_count),
        workspace(partition_workspace_bytes(object_count + item_count)) {
    load_balance_search(offsets.data(), offsets.size(), items, want_objects.data(), want_ranks.data());
  }
};

void check_lbs_row(const LbsStage& stage, const LaunchShape& shape, LbsCase& lbs_case, Distribution distribution) {
  CAPTURE(stage.name);
  CAPTURE(describe(shape));
  CAPTURE(lbs_case.offsets.size());
  CAPTURE(lbs_case.items);
  CAPTURE(std::string(to_string(distribution)));
  CAPTURE(lbs_case.seed);
  poison(lbs_case.objects);
  poison(lbs_case.ranks);
  stage.launch(lbs_case.offsets_device.data(), lbs_case.objects.data(), lbs_case.ranks.data(), lbs_case.offsets.size(),
               lbs_case.items, lbs_case.workspace, shape, nullptr);
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
  const Check objects = compare_exact(lbs_case.objects.download(), lbs_case.want_objects);
  CHECK_MESSAGE(objects.passed, "objects: ", objects.detail);
  const Check ranks = compare_exact(lbs_case.ranks.download(), lbs_case.want_ranks);
  CHECK_MESSAGE(ranks.passed, "ranks: ", ranks.detail);
  check_no_stray_writes();
}

/// (objects, items) where the load-balancing search's bugs live: one object, no items, every
/// tile edge of the merged length, many more objects than items, and the default 1 : 7.
SizePairs lbs_sizes() {
  std::set<std::pair<std::size_t, std::size_t>> sizes = {
      {1, 0},      {1, 1},           {1, 5000},    {5, 0},       {2, 1},
      {7, 3},      {4096, 1},        {100003, 17}, {1000, 7000}, {std::size_t{1} << 17, 7 * (std::size_t{1} << 17)},
      {1, 100003}, {999983, 1000003}};
  for (const LbsStage& stage : lbs_stages()) {
    const std::size_t nv = tile_items(stage.shape);
    if (nv == 0) continue;
    for (std::size_t total : {nv - 1, nv, nv + 1, 3 * nv + 5})
      for (std::size_t objects : {std::size_t{1}, total / 8 + 1, total / 2})
        if (objects <= total) sizes.insert({objects, total - objects});
  }
  return {sizes.begin(), sizes.end()};
}

}  // namespace

TEST_CASE_TEMPLATE("every merge row is exact, keys and pairs, at every edge size (uniform keys)", K, std::int32_t,
                   std::int64_t) {
  check_merge_edge_sizes<K>(merge_rows<K>());
}

TEST_CASE_TEMPLATE("every merge row is exact, keys and pairs, for every distribution (ties, skews, all equal)", K,
                   std::int32_t, std::int64_t) {
  check_merge_distributions<K>(merge_rows<K>());
}

TEST_CASE_TEMPLATE("every shape of every merge --sweep is exact at its tile edges, keys and pairs", K, std::int32_t,
                   std::int64_t) {
  check_merge_sweep_shapes<K>(merge_stages<K>());
}

TEST_CASE("merge rows pass 2^31 outputs (64-bit offsets), where device memory allows") {
  const std::size_t na = (std::size_t{1} << 30) + 12345, nb = (std::size_t{1} << 30) + 67891;
  const double bytes = 2.0 * 4.0 * static_cast<double>(na + nb);
  if (static_cast<double>(free_device_bytes()) < bytes + (std::size_t{2} << 30)) {
    MESSAGE("stepwise-skip: a merge of 2^31 int32 keys needs ", format_bytes(bytes), " of device memory");
    return;
  }
  MergeCase<std::int32_t> merge_case(na, nb, Distribution::interleaved, false, fresh_seed());
  for (const MergeStage<std::int32_t>& stage : merge_stages<std::int32_t>())
    if (stage.traits.work != Work::per_thread_path)  // 2^31 / 7 global searches, uncoalesced stores: minutes
      check_merge_row(stage, stage.shape, merge_case, Distribution::interleaved);
}

TEST_CASE("search and load-balancing rows at their int32 limits: 2^31 - 1 haystack keys, items, where memory allows") {
  // The library rows (thrust::lower_bound/upper_bound, thrust::upper_bound over a counting
  // iterator) write int32 results of 64-bit searches: at the documented maximum every result
  // still fits, and every row must be exact there.
  const std::size_t limit = kMaxIndexed;
  const std::size_t needles = (std::size_t{1} << 20) + 7, objects = (std::size_t{1} << 20) + 3;
  const double search_device = 4.0 * static_cast<double>(needles + limit) + 4.0 * static_cast<double>(needles);
  const double search_host = 4.0 * static_cast<double>(needles + limit) + 8.0 * static_cast<double>(needles);
  const double lbs_device = 4.0 * static_cast<double>(objects) + 8.0 * static_cast<double>(limit);
  const double lbs_host = 3.0 * 8.0 * static_cast<double>(limit);
  const double spare = 2.0 * (std::size_t{1} << 30);
  if (static_cast<double>(free_device_bytes()) < std::max(search_device, lbs_device) + spare ||
      static_cast<double>(available_host_bytes()) < std::max(search_host, lbs_host) + spare) {
    MESSAGE("stepwise-skip: 2^31 - 1 keys and items need ", format_bytes(std::max(search_device, lbs_device)),
            " of device memory and ", format_bytes(std::max(search_host, lbs_host)), " of host memory");
    return;
  }
  {
    SearchCase<std::int32_t> search_case(needles, limit, Distribution::uniform, fresh_seed());
    for (const SearchStage<std::int32_t>& stage : search_stages<std::int32_t>())
      for (Bounds bounds : {Bounds::lower, Bounds::upper})
        check_search_row(stage, stage.shape, search_case, bounds, Distribution::uniform);
  }
  LbsCase lbs_case(objects, limit, Distribution::uniform, fresh_seed());
  for (const LbsStage& stage : lbs_stages()) check_lbs_row(stage, stage.shape, lbs_case, Distribution::uniform);
}

TEST_CASE_TEMPLATE("every search row is exact for both bounds at every edge size", K, std::int32_t, std::int64_t) {
  search_rows_at<K>(edge_sizes(search_stages<K>()), Distribution::uniform);
}

TEST_CASE_TEMPLATE("every search row is exact for both bounds for every distribution", K, std::int32_t, std::int64_t) {
  const SizePairs sizes = {{1, 1}, {100003, 400009}, {3, 200000}, {200000, 3}, {1u << 20, (1u << 22) + 1}};
  for (Distribution distribution : kMergeDistributions) search_rows_at<K>(sizes, distribution);
}

TEST_CASE_TEMPLATE("every shape of every search --sweep is exact at its tile edges", K, std::int32_t, std::int64_t) {
  for (const SearchStage<K>& stage : search_stages<K>())
    for (const LaunchShape& shape : stage.sweep) {
      std::set<std::pair<std::size_t, std::size_t>> sizes = {{100003, 400009}};
      add_tile_edges(sizes, tile_items(shape));
      for (const auto& [na, nb] : sizes) {
        SearchCase<K> search_case(na, nb, Distribution::duplicates, fresh_seed());
        for (Bounds bounds : {Bounds::lower, Bounds::upper})
          check_search_row(stage, shape, search_case, bounds, Distribution::duplicates);
      }
    }
}

TEST_CASE("every load-balancing row is exact at every edge size, for every distribution") {
  for (Distribution distribution : kMergeDistributions)
    for (const auto& [objects, items] : lbs_sizes()) {
      LbsCase lbs_case(objects, items, distribution, fresh_seed());
      for (const LbsStage& stage : lbs_stages()) check_lbs_row(stage, stage.shape, lbs_case, distribution);
    }
}

TEST_CASE("every shape of the load-balancing --sweep is exact at its tile edges") {
  for (const LbsStage& stage : lbs_stages())
    for (const LaunchShape& shape : stage.sweep) {
      const std::size_t nv = std::max<std::size_t>(tile_items(shape), 1024);  // thread-only shapes: 1024
      for (const auto& [objects, items] : SizePairs{
               {1, nv - 2}, {nv / 8, nv - nv / 8}, {nv / 8, nv - nv / 8 + 1}, {nv, 2 * nv + 5}, {100003, 700001}}) {
        LbsCase lbs_case(objects, items, Distribution::uniform, fresh_seed());
        check_lbs_row(stage, shape, lbs_case, Distribution::uniform);
      }
    }
}

TEST_CASE("the launchers refuse what they cannot run, before launching anything") {
  DeviceBuffer<std::int32_t> a(4096), b(4096), out(8192);
  DeviceBuffer<Value> values(8192);
  Workspace workspace = make_merge_workspace<std::int32_t>(4096, 4096, true);
  Workspace tiny(8);
  for (const MergeStage<std::int32_t>& stage : merge_rows<std::int32_t>()) {
    CAPTURE(stage.name);
    CAPTURE(stage.variant);
    // Values for A but not for a non-empty B, or no output values.
    CHECK_THROWS_AS(stage.launch(a.data(), values.data(), b.data(), nullptr, out.data(), values.data(), 100, 100,
                                 workspace, stage.shape, nullptr),
                    std::invalid_argument);
    CHECK_THROWS_AS(stage.launch(a.data(), values.data(), b.data(), values.data(), out.data(), nullptr, 100, 100,
                                 workspace, stage.shape, nullptr),
                    std::invalid_argument);
    if (stage.kind != RowKind::kernel) continue;
    LaunchShape odd = stage.shape;
    odd.threads = 100;
    CHECK_THROWS_AS(
        stage.launch(a.data(), nullptr, b.data(), nullptr, out.data(), nullptr, 100, 100, workspace, odd, nullptr),
        std::invalid_argument);
    if (stage.shape.items != 0) {
      LaunchShape even = stage.shape;
      even.items = 8;
      CHECK_THROWS_AS(
          stage.launch(a.data(), nullptr, b.data(), nullptr, out.data(), nullptr, 100, 100, workspace, even, nullptr),
          std::invalid_argument);
    }
    if (stage.traits.work == Work::tiled)  // the rows with a partition kernel
      CHECK_THROWS_AS(stage.launch(a.data(), nullptr, b.data(), nullptr, out.data(), nullptr, 4096, 4096, tiny,
                                   stage.shape, nullptr),
                      std::invalid_argument);
    if (stage.traits.aligned_bytes > 1) {
      CHECK_THROWS_AS(stage.launch(a.data() + 1, nullptr, b.data(), nullptr, out.data(), nullptr, 100, 100, workspace,
                                   stage.shape, nullptr),
                      std::invalid_argument);
      CHECK_THROWS_AS(stage.launch(a.data(), nullptr, b.data(), nullptr, out.data() + 2, nullptr, 100, 100, workspace,
                                   stage.shape, nullptr),
                      std::invalid_argument);
    }
  }
  for (const SearchStage<std::int32_t>& stage : search_stages<std::int32_t>()) {
    CAPTURE(stage.name);
    CHECK_THROWS_AS(stage.launch(a.data(), b.data(), out.data(), 10, kMaxIndexed + 1, Bounds::lower, workspace,
                                 stage.shape, nullptr),
                    std::invalid_argument);
    if (stage.traits.aligned_bytes > 1)
      CHECK_THROWS_AS(
          stage.launch(a.data() + 1, b.data(), out.data(), 10, 10, Bounds::lower, workspace, stage.shape, nullptr),
          std::invalid_argument);
  }
  for (const LbsStage& stage : lbs_stages()) {
    CAPTURE(stage.name);
    CHECK_THROWS_AS(stage.launch(a.data(), out.data(), b.data(), 0, 10, workspace, stage.shape, nullptr),
                    std::invalid_argument);
    CHECK_THROWS_AS(stage.launch(a.data(), out.data(), b.data(), 10, kMaxIndexed + 1, workspace, stage.shape, nullptr),
                    std::invalid_argument);
  }
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
  check_no_stray_writes();
}

TEST_CASE("empty inputs launch nothing and write nothing") {
  DeviceBuffer<std::int32_t> out(1);
  DeviceBuffer<Value> values(1);
  DeviceBuffer<std::int32_t> ranks(1);
  poison(out);
  poison(values);
  poison(ranks);
  Workspace workspace = make_merge_workspace<std::int32_t>(0, 0, true);
  for (const MergeStage<std::int32_t>& stage : merge_rows<std::int32_t>())
    stage.launch(nullptr, nullptr, nullptr, nullptr, out.data(), nullptr, 0, 0, workspace, stage.shape, nullptr);
  for (const SearchStage<std::int32_t>& stage : search_stages<std::int32_t>())
    stage.launch(nullptr, nullptr, out.data(), 0, 0, Bounds::lower, workspace, stage.shape, nullptr);
  for (const LbsStage& stage : lbs_stages())
    stage.launch(nullptr, out.data(), ranks.data(), 0, 0, workspace, stage.shape, nullptr);
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
  for (const auto& buffer : {out.download(), ranks.download()}) {
    std::vector<unsigned char> poisoned(sizeof(std::int32_t), poison_byte<std::int32_t>());
    CHECK(std::memcmp(buffer.data(), poisoned.data(), sizeof(std::int32_t)) == 0);
  }
  check_no_stray_writes();
}

// A short case that still reaches every kernel of every table (keys and pairs, int32 and int64,
// both bounds, empty objects), several tiles each: tools/gpu-round-03.sh runs it under each
// compute-sanitizer tool.
TEST_CASE("sanitizer round: every row of every table once, at a small size of several tiles") {
  MergeCase<std::int32_t> keys32(12011, 12989, Distribution::duplicates, false, fresh_seed());
  MergeCase<std::int32_t> pairs32(12011, 12989, Distribution::duplicates, true, fresh_seed());
  MergeCase<std::int64_t> keys64(6007, 6011, Distribution::duplicates, false, fresh_seed());
  MergeCase<std::int64_t> pairs64(6007, 6011, Distribution::duplicates, true, fresh_seed());
  for (const MergeStage<std::int32_t>& stage : merge_rows<std::int32_t>()) {
    check_merge_row(stage, stage.shape, keys32, Distribution::duplicates);
    check_merge_row(stage, stage.shape, pairs32, Distribution::duplicates);
  }
  for (const MergeStage<std::int64_t>& stage : merge_rows<std::int64_t>()) {
    check_merge_row(stage, stage.shape, keys64, Distribution::duplicates);
    check_merge_row(stage, stage.shape, pairs64, Distribution::duplicates);
  }
  SearchCase<std::int32_t> search32(5003, 20011, Distribution::duplicates, fresh_seed());
  SearchCase<std::int64_t> search64(5003, 20011, Distribution::duplicates, fresh_seed());
  for (Bounds bounds : {Bounds::lower, Bounds::upper}) {
    for (const SearchStage<std::int32_t>& stage : search_stages<std::int32_t>())
      check_search_row(stage, stage.shape, search32, bounds, Distribution::duplicates);
    for (const SearchStage<std::int64_t>& stage : search_stages<std::int64_t>())
      check_search_row(stage, stage.shape, search64, bounds, Distribution::duplicates);
  }
  LbsCase lbs(3001, 21011, Distribution::duplicates, fresh_seed());
  for (const LbsStage& stage : lbs_stages()) check_lbs_row(stage, stage.shape, lbs, Distribution::duplicates);
}
