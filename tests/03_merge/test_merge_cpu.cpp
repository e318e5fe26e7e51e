// CPU tests of chapter 03: the host/device pieces the kernels run (Merge Path against a
// brute-force definition on every diagonal, the serial merge against std::merge with values on
// ties, the sorted search and the load-balancing search against simple references, each cut
// into per-thread pieces as the tiles cut them), the talk's worked examples, the inputs of every
// distribution, the CPU reference, the options and sizes, the stage tables and --analyze's text
// and JSON.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <limits>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "algorithm/load_balance.hpp"
#include "algorithm/merge_path.hpp"
#include "algorithm/sorted_search.hpp"
#include "analysis.hpp"
#include "chapter.hpp"
#include "cli_checks.hpp"
#include "host/data.hpp"
#include "inputs.hpp"
#include "merge.hpp"
#include "options.hpp"
#include "problems.hpp"

using namespace stepwise;
using namespace stepwise::merge;

namespace {

/// A sorted array of @p count keys in [0, range): small ranges make ties everywhere.
std::vector<int> sorted_random(std::mt19937_64& rng, int count, int range) {
  std::vector<int> keys(static_cast<std::size_t>(count));
  std::uniform_int_distribution<int> draw(0, range - 1);
  for (int& key : keys) key = draw(rng);
  std::sort(keys.begin(), keys.end());
  return keys;
}

/// A key with where it came from: (key, 0 for A or 1 for B, index).
struct Tagged {
  int key;
  int source;
  int index;
  friend bool operator==(const Tagged& x, const Tagged& y) {
    return x.key == y.key && x.source == y.source && x.index == y.index;
  }
};

std::vector<Tagged> tagged(const std::vector<int>& keys, int source) {
  std::vector<Tagged> out;
  for (std::size_t i = 0; i < keys.size(); ++i) out.push_back({keys[i], source, static_cast<int>(i)});
  return out;
}

/// The merge by definition: std::merge is stable, so its first range wins ties. Bounds::lower
/// puts A first, Bounds::upper puts B first.
std::vector<Tagged> merged(const std::vector<int>& a, const std::vector<int>& b, Bounds bounds) {
  const std::vector<Tagged> ta = tagged(a, 0), tb = tagged(b, 1);
  std::vector<Tagged> out(a.size() + b.size());
  const auto by_key = [](const Tagged& x, const Tagged& y) { return x.key < y.key; };
  if (bounds == Bounds::lower)
    std::merge(ta.begin(), ta.end(), tb.begin(), tb.end(), out.begin(), by_key);
  else
    std::merge(tb.begin(), tb.end(), ta.begin(), ta.end(), out.begin(), by_key);
  return out;
}

/// How many of the first @p diagonal outputs of the merge come from A: Merge Path's definition.
int brute_force_path(const std::vector<Tagged>& merge, int diagonal) {
  return static_cast<int>(
      std::count_if(merge.begin(), merge.begin() + diagonal, [](const Tagged& t) { return t.source == 0; }));
}

/// An iterator over a vector that remembers the lowest and highest index read.
struct WatchedKeys {
  const std::vector<int>* keys;
  int* lowest;
  int* highest;
  int operator[](int i) const {
    *lowest = std::min(*lowest, i);
    *highest = std::max(*highest, i);
    return (*keys)[static_cast<std::size_t>(i)];
  }
};

/// The serial merge of VT steps for every thread of a merge cut every VT outputs, concatenated;
/// also checks that no thread reads outside its arrays.
template <int VT>
std::vector<Tagged> merge_by_threads(const std::vector<int>& a, const std::vector<int>& b) {
  const int na = static_cast<int>(a.size()), nb = static_cast<int>(b.size());
  std::vector<Tagged> out;
  int a_low = na, a_high = -1, b_low = nb, b_high = -1;
  const WatchedKeys wa{&a, &a_low, &a_high}, wb{&b, &b_low, &b_high};
  for (int diagonal = 0; diagonal < na + nb; diagonal += VT) {
    const int path = merge_path(a.data(), na, b.data(), nb, diagonal, Less{});
    int emitted = 0;
    serial_merge<VT>(wa, path, na, wb, diagonal - path, nb, Less{},
                     [&](int i, bool from_a, int a_index, int b_index, int key) {
                       CHECK(i == emitted++);
                       out.push_back({key, from_a ? 0 : 1, from_a ? a_index : b_index});
                     });
    CHECK(emitted == std::min(VT, na + nb - diagonal));
  }
  CHECK(a_low >= 0);
  CHECK(a_high < na);
  CHECK(b_low >= 0);
  CHECK(b_high < nb);
  return out;
}

}  // namespace

TEST_CASE("merge_path finds on every diagonal how many outputs come from A, ties either way") {
  std::mt19937_64 rng(fresh_seed());
  for (int trial = 0; trial < 300; ++trial) {
    std::uniform_int_distribution<int> size(0, 24);
    const int range = trial % 3 == 0 ? 2 : trial % 3 == 1 ? 6 : 1000;
    const std::vector<int> a = sorted_random(rng, size(rng), range), b = sorted_random(rng, size(rng), range);
    const int na = static_cast<int>(a.size()), nb = static_cast<int>(b.size());
    for (Bounds bounds : {Bounds::lower, Bounds::upper}) {
      const std::vector<Tagged> merge = merged(a, b, bounds);
      for (int diagonal = 0; diagonal <= na + nb; ++diagonal) {
        CAPTURE(diagonal);
        const int want = brute_force_path(merge, diagonal);
        int comparisons = 0;
        const auto counting_less = [&comparisons](int x, int y) {
          ++comparisons;
          return x < y;
        };
        const int got = bounds == Bounds::lower
                            ? merge_path<Bounds::lower>(a.data(), na, b.data(), nb, diagonal, counting_less)
                            : merge_path<Bounds::upper>(a.data(), na, b.data(), nb, diagonal, counting_less);
        CHECK(got == want);
        CHECK(comparisons <= merge_path_max_steps(na, nb, diagonal));
        // 64-bit indices give the same answer.
        const std::int64_t wide =
            merge_path(a.data(), std::int64_t{na}, b.data(), std::int64_t{nb}, std::int64_t{diagonal}, Less{});
        if (bounds == Bounds::lower) CHECK(wide == want);
      }
    }
  }
}

TEST_CASE("merge_path: the ends of the diagonals and the degenerate arrays") {
  const std::vector<int> a = {1, 2, 3}, empty;
  CHECK(merge_path(a.data(), 3, empty.data(), 0, 2, Less{}) == 2);
  CHECK(merge_path(empty.data(), 0, a.data(), 3, 2, Less{}) == 0);
  CHECK(merge_path(a.data(), 3, a.data(), 3, 0, Less{}) == 0);
  CHECK(merge_path(a.data(), 3, a.data(), 3, 6, Less{}) == 3);
  // Equal keys: ties take A first, so the first three outputs all come from A.
  const std::vector<int> same = {7, 7, 7};
  CHECK(merge_path(same.data(), 3, same.data(), 3, 3, Less{}) == 3);
  CHECK(merge_path<Bounds::upper>(same.data(), 3, same.data(), 3, 3, Less{}) == 0);
  CHECK(merge_path_max_steps(3, 3, 3) == 2);
  CHECK(merge_path_max_steps(1 << 27, 1 << 27, 1 << 27) == 28);
}

TEST_CASE_TEMPLATE("serial_merge from every thread's cross point is std::merge, stable on ties", VTType,
                   std::integral_constant<int, 1>, std::integral_constant<int, 3>, std::integral_constant<int, 7>,
                   std::integral_constant<int, 15>) {
  constexpr int kVT = VTType::value;
  std::mt19937_64 rng(fresh_seed());
  for (int trial = 0; trial < 200; ++trial) {
    std::uniform_int_distribution<int> size(0, 40);
    const int range = trial % 2 == 0 ? 3 : 100;
    const std::vector<int> a = sorted_random(rng, size(rng), range), b = sorted_random(rng, size(rng), range);
    CHECK(merge_by_threads<kVT>(a, b) == merged(a, b, Bounds::lower));
  }
}

TEST_CASE("serial_merge with Bounds::upper takes B first on ties") {
  const std::vector<int> a = {5, 5}, b = {5};
  std::vector<int> sources;
  serial_merge<3, Bounds::upper>(a.data(), 0, 2, b.data(), 0, 1, Less{},
                                 [&](int, bool from_a, int, int, int) { sources.push_back(from_a ? 0 : 1); });
  CHECK(sources == std::vector<int>{1, 0, 0});
}

TEST_CASE("tile_merge_range: tiles cut A and B into consecutive ranges of NV outputs") {
  std::mt19937_64 rng(fresh_seed());
  for (int trial = 0; trial < 50; ++trial) {
    const std::vector<int> a = sorted_random(rng, trial * 7 % 61, 20), b = sorted_random(rng, trial * 13 % 53, 20);
    const int na = static_cast<int>(a.size()), nb = static_cast<int>(b.size());
    for (int spacing : {1, 5, 16}) {
      int a_end = 0, b_end = 0;
      for (int tile = 0; tile * spacing < na + nb; ++tile) {
        const int first = merge_path(a.data(), na, b.data(), nb, tile * spacing, Less{});
        const int last = merge_path(a.data(), na, b.data(), nb, std::min(na + nb, (tile + 1) * spacing), Less{});
        const MergeRange<int> range = tile_merge_range(na, nb, tile, spacing, first, last);
        CHECK(range.a_begin == a_end);
        CHECK(range.b_begin == b_end);
        CHECK(range.count() == std::min(spacing, na + nb - tile * spacing));
        a_end = range.a_end;
        b_end = range.b_end;
      }
      CHECK(a_end == na);
      CHECK(b_end == nb);
    }
  }
}

TEST_CASE("search_bound is std::lower_bound and std::upper_bound") {
  std::mt19937_64 rng(fresh_seed());
  for (int trial = 0; trial < 100; ++trial) {
    const std::vector<int> haystack = sorted_random(rng, trial % 30, 10);
    for (int key = -1; key <= 11; ++key) {
      const auto n = haystack.size();
      CHECK(search_bound<Bounds::lower>(haystack.data(), n, key, Less{}) ==
            static_cast<std::size_t>(std::lower_bound(haystack.begin(), haystack.end(), key) - haystack.begin()));
      CHECK(search_bound<Bounds::upper>(haystack.data(), n, key, Less{}) ==
            static_cast<std::size_t>(std::upper_bound(haystack.begin(), haystack.end(), key) - haystack.begin()));
    }
  }
}

TEST_CASE("sorted search: whole and cut into per-thread pieces, against std::lower_bound / upper_bound") {
  std::mt19937_64 rng(fresh_seed());
  for (int trial = 0; trial < 200; ++trial) {
    std::uniform_int_distribution<int> size(0, 40);
    const std::vector<int> needles = sorted_random(rng, size(rng), trial % 2 ? 4 : 50);
    const std::vector<int> haystack = sorted_random(rng, size(rng), trial % 2 ? 4 : 50);
    const int na = static_cast<int>(needles.size()), nb = static_cast<int>(haystack.size());
    for (Bounds bounds : {Bounds::lower, Bounds::upper}) {
      std::vector<int> want(needles.size());
      for (std::size_t i = 0; i < needles.size(); ++i)
        want[i] = static_cast<int>((bounds == Bounds::lower
                                        ? std::lower_bound(haystack.begin(), haystack.end(), needles[i])
                                        : std::upper_bound(haystack.begin(), haystack.end(), needles[i])) -
                                   haystack.begin());
      std::vector<int> whole(needles.size(), -1), pieces(needles.size(), -1);
      constexpr int kVT = 5;
      if (bounds == Bounds::lower) {
        sorted_search<Bounds::lower>(needles.data(), na, haystack.data(), nb, whole.data(), Less{});
        for (int d = 0; d < na + nb; d += kVT) {
          const int path = merge_path<Bounds::lower>(needles.data(), na, haystack.data(), nb, d, Less{});
          serial_sorted_search<kVT, Bounds::lower>(needles.data(), path, na, haystack.data(), d - path, nb,
                                                   pieces.data(), 0, Less{});
        }
      } else {
        sorted_search<Bounds::upper>(needles.data(), na, haystack.data(), nb, whole.data(), Less{});
        for (int d = 0; d < na + nb; d += kVT) {
          const int path = merge_path<Bounds::upper>(needles.data(), na, haystack.data(), nb, d, Less{});
          serial_sorted_search<kVT, Bounds::upper>(needles.data(), path, na, haystack.data(), d - path, nb,
                                                   pieces.data(), 0, Less{});
        }
      }
      CHECK(whole == want);
      CHECK(pieces == want);
    }
  }
}

TEST_CASE("the talk's sorted search example: lower and upper bounds of A A B D F F F F G in A A A B C E E F F") {
  const std::string needles = "AABDFFFFG", haystack = "AAABCEEFF";
  std::vector<int> lower(needles.size()), upper(needles.size());
  sorted_search<Bounds::lower>(needles.data(), needles.size(), haystack.data(), haystack.size(), lower.data(), Less{});
  sorted_search<Bounds::upper>(needles.data(), needles.size(), haystack.data(), haystack.size(), upper.data(), Less{});
  CHECK(lower == std::vector<int>{0, 0, 3, 5, 7, 7, 7, 7, 9});
  CHECK(upper == std::vector<int>{3, 3, 4, 5, 9, 9, 9, 9, 9});
}

namespace {

std::vector<int> exclusive_scan(const std::vector<int>& counts, int& total) {
  std::vector<int> offsets(counts.size());
  total = 0;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    offsets[k] = total;
    total += counts[k];
  }
  return offsets;
}

/// The load-balancing search by definition (upper_bound - 1), and cut into per-thread pieces of
/// VT steps; both must agree with load_balance_search.
void check_lbs(const std::vector<int>& offsets, int items) {
  const int objects = static_cast<int>(offsets.size());
  std::vector<int> want_objects(static_cast<std::size_t>(items)), want_ranks(static_cast<std::size_t>(items));
  for (int i = 0; i < items; ++i) {
    want_objects[static_cast<std::size_t>(i)] =
        static_cast<int>(std::upper_bound(offsets.begin(), offsets.end(), i) - offsets.begin()) - 1;
    want_ranks[static_cast<std::size_t>(i)] =
        i - offsets[static_cast<std::size_t>(want_objects[static_cast<std::size_t>(i)])];
  }
  std::vector<int> got_objects(static_cast<std::size_t>(items)), got_ranks(static_cast<std::size_t>(items));
  load_balance_search(offsets.data(), objects, items, got_objects.data(), got_ranks.data());
  CHECK(got_objects == want_objects);
  CHECK(got_ranks == want_ranks);
  constexpr int kVT = 4;
  std::vector<int> pieces(static_cast<std::size_t>(items), -1);
  const CountingIterator<int> counting{0};
  for (int d = 0; d < items + objects; d += kVT) {
    const int path = merge_path<Bounds::upper>(counting, items, offsets.data(), objects, d, Less{});
    serial_load_balance<kVT>(counting, path, items, offsets.data(), d - path, objects, [&](int item, int next_object) {
      pieces[static_cast<std::size_t>(item)] = next_object - 1;
    });
  }
  CHECK(pieces == want_objects);
}

}  // namespace

TEST_CASE("load-balancing search: whole and per thread, against upper_bound - 1, empty objects included") {
  std::mt19937_64 rng(fresh_seed());
  for (int trial = 0; trial < 200; ++trial) {
    std::uniform_int_distribution<int> objects(1, 30), count(0, trial % 2 ? 1 : 6);
    std::vector<int> counts(static_cast<std::size_t>(objects(rng)));
    for (int& c : counts) c = count(rng);
    int items = 0;
    const std::vector<int> offsets = exclusive_scan(counts, items);
    check_lbs(offsets, items);
  }
}

TEST_CASE("the talk's load-balancing example: 40 objects' counts to the object of each of 79 items") {
  int items = 0;
  const std::vector<int> offsets = exclusive_scan(talk_lbs_counts(), items);
  REQUIRE(items == 79);
  std::vector<int> objects(79), ranks(79);
  load_balance_search(offsets.data(), offsets.size(), std::size_t{79}, objects.data(), ranks.data());
  CHECK(objects == talk_lbs_objects());
  CHECK(offsets[10] == 27);
  CHECK(offsets[20] == 37);
  CHECK(offsets[30] == 56);
  check_lbs(offsets, items);
}

TEST_CASE("the talk's inner-join example: counts UB - LB to the LBS and ranks of its 15 outputs") {
  const std::vector<int> lower = {0, 0, 3, 5, 7, 7, 7, 7, 9}, upper = {3, 3, 4, 5, 9, 9, 9, 9, 9};
  std::vector<int> counts(lower.size());
  for (std::size_t i = 0; i < counts.size(); ++i) counts[i] = upper[i] - lower[i];
  CHECK(counts == std::vector<int>{3, 3, 1, 0, 2, 2, 2, 2, 0});
  int items = 0;
  const std::vector<int> offsets = exclusive_scan(counts, items);
  CHECK(offsets == std::vector<int>{0, 3, 6, 7, 7, 9, 11, 13, 15});
  REQUIRE(items == 15);
  std::vector<int> objects(15), ranks(15);
  load_balance_search(offsets.data(), offsets.size(), std::size_t{15}, objects.data(), ranks.data());
  CHECK(objects == std::vector<int>{0, 0, 0, 1, 1, 1, 2, 4, 4, 5, 5, 6, 6, 7, 7});
  CHECK(ranks == std::vector<int>{0, 1, 2, 0, 1, 2, 0, 0, 1, 0, 1, 0, 1, 0, 1});
}

TEST_CASE_TEMPLATE("inputs: every distribution gives sorted, reproducible, never all-zero keys", K, std::int32_t,
                   std::int64_t) {
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  for (const std::string& name : distribution_names()) {
    const Distribution distribution = parse_distribution(name);
    CAPTURE(name);
    for (const auto& [na, nb] : std::vector<std::pair<std::size_t, std::size_t>>{
             {0, 0}, {0, 5}, {5, 0}, {1, 1}, {1000, 3}, {4097, 4099}, {100000, 100001}}) {
      const SortedArrays<K> arrays = sorted_arrays<K>(na, nb, distribution, seed);
      REQUIRE(arrays.a.size() == na);
      REQUIRE(arrays.b.size() == nb);
      CHECK(std::is_sorted(arrays.a.begin(), arrays.a.end()));
      CHECK(std::is_sorted(arrays.b.begin(), arrays.b.end()));
      const SortedArrays<K> again = sorted_arrays<K>(na, nb, distribution, seed);
      CHECK(again.a == arrays.a);
      CHECK(again.b == arrays.b);
      std::vector<K> all = arrays.a;
      all.insert(all.end(), arrays.b.begin(), arrays.b.end());
      if (!all.empty()) {
        CHECK_FALSE(std::all_of(all.begin(), all.end(), [](K k) { return k == 0; }));
        CHECK_FALSE(std::all_of(all.begin(), all.end(), [](K k) { return k == K(-1); }));
      }
      if (distribution == Distribution::disjoint && na > 0 && nb > 0) CHECK(arrays.a.back() < arrays.b.front());
      if (distribution == Distribution::equal && !all.empty())
        CHECK(std::all_of(all.begin(), all.end(), [&](K k) { return k == all.front(); }));
      if (distribution == Distribution::interleaved && na == nb && na > 0)
        for (std::size_t i = 0; i + 1 < na; ++i) {
          CHECK(arrays.a[i] < arrays.b[i]);
          CHECK(arrays.b[i] < arrays.a[i + 1]);
        }
      if (distribution == Distribution::duplicates && na >= 1000 && nb >= 1000) {
        const std::set<K> distinct(all.begin(), all.end());
        CHECK(distinct.size() * 4 < all.size());
        CHECK(std::find(arrays.b.begin(), arrays.b.end(), arrays.a[na / 2]) != arrays.b.end());
      }
      if (std::is_same_v<K, std::int64_t> && distribution == Distribution::uniform && na >= 1000) {
        const K low = arrays.a.front(), high = arrays.a.back();
        CHECK(static_cast<double>(high) - static_cast<double>(low) > 1e18);  // far beyond 32 bits
      }
    }
  }
  CHECK_THROWS_AS(parse_distribution("bogus"), std::invalid_argument);
}

TEST_CASE("inputs: pair values are distinct, and the load-balancing offsets match their distribution") {
  const std::uint64_t seed = fresh_seed();
  const std::vector<Value> values = pair_values(0, 100000, seed);
  CHECK(std::set<Value>(values.begin(), values.end()).size() == values.size());
  CHECK(pair_values(5, 3, seed) == std::vector<Value>(values.begin() + 5, values.begin() + 8));
  for (const std::string& name : distribution_names()) {
    CAPTURE(name);
    const Distribution distribution = parse_distribution(name);
    for (const auto& [objects, items] : std::vector<std::pair<std::size_t, std::size_t>>{
             {1, 0}, {1, 5}, {2, 1}, {7, 100}, {1000, 7000}, {4096, 1}, {100003, 700001}}) {
      const std::vector<std::int32_t> offsets = lbs_offsets(objects, items, distribution, seed);
      REQUIRE(offsets.size() == objects);
      CHECK(offsets.front() == 0);
      CHECK(std::is_sorted(offsets.begin(), offsets.end()));
      CHECK(static_cast<std::size_t>(offsets.back()) <= items);
      if (distribution == Distribution::equal)
        for (std::size_t k = 0; k + 1 < objects; ++k)
          CHECK(offsets[k + 1] - offsets[k] == items * (k + 1) / objects - items * k / objects);
      if (distribution == Distribution::disjoint && objects >= 4) CHECK(offsets[objects / 2] == 0);
      if (distribution == Distribution::duplicates && objects >= 1000) {
        std::size_t empty = 0;
        for (std::size_t k = 1; k < objects; ++k) empty += offsets[k] == offsets[k - 1];
        CHECK(empty * 2 > objects);
      }
      if (distribution == Distribution::interleaved && objects >= 4 && items >= objects) {
        CHECK(offsets[1] == offsets[0]);  // object 0 empty
        CHECK(offsets[2] > offsets[1]);   // object 1 full
      }
    }
  }
  CHECK_THROWS_AS(lbs_offsets(0, 5, Distribution::uniform, seed), std::invalid_argument);
  CHECK(lbs_offsets(0, 0, Distribution::uniform, seed).empty());
}

TEST_CASE_TEMPLATE("merge_reference is the stable std::merge of (key, value) pairs", K, std::int32_t, std::int64_t) {
  const std::uint64_t seed = fresh_seed();
  CAPTURE(seed);
  for (const std::string& name : distribution_names()) {
    const SortedArrays<K> arrays = sorted_arrays<K>(3001, 1999, parse_distribution(name), seed);
    const std::vector<Value> a_values = pair_values(0, 3001, seed), b_values = pair_values(3001, 1999, seed);
    std::vector<K> keys(5000);
    std::vector<Value> values(5000);
    merge_reference(arrays.a, a_values, arrays.b, b_values, keys, values);
    std::vector<std::pair<K, Value>> a, b, want(5000);
    for (std::size_t i = 0; i < 3001; ++i) a.push_back({arrays.a[i], a_values[i]});
    for (std::size_t i = 0; i < 1999; ++i) b.push_back({arrays.b[i], b_values[i]});
    std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin(),
               [](const auto& x, const auto& y) { return x.first < y.first; });
    for (std::size_t i = 0; i < 5000; ++i) {
      CHECK(keys[i] == want[i].first);
      CHECK(values[i] == want[i].second);
    }
    CHECK(check_merge(keys, values, keys, values).passed);
    std::vector<K> keys_only(5000);
    std::vector<Value> none;
    merge_reference(arrays.a, none, arrays.b, none, keys_only, none);
    CHECK(keys_only == keys);
  }
}

TEST_CASE("check_merge catches equal keys with their values swapped (an unstable merge)") {
  const std::vector<std::int32_t> keys = {1, 5, 5, 9};
  const std::vector<Value> want = {10, 20, 30, 40}, swapped = {10, 30, 20, 40};
  CHECK(check_merge(keys, want, keys, want).passed);
  const Check check = check_merge(keys, swapped, keys, want);
  CHECK_FALSE(check.passed);
  CHECK(check.detail.find("values") != std::string::npos);
  CHECK_FALSE(check_merge(std::vector<std::int32_t>{1, 5, 6, 9}, want, keys, want).passed);
}

TEST_CASE("options: the default sizes of each problem, --n is always |A| + |B|") {
  CHECK(chapter_info(ProblemKind::merge).default_n == (std::uint64_t{1} << 28));
  CHECK(chapter_info(ProblemKind::search).default_n == 5 * (std::uint64_t{1} << 24));
  CHECK(chapter_info(ProblemKind::lbs).default_n == (std::uint64_t{1} << 27));
  const CountOption none;
  const auto n_of = [](std::uint64_t n) { return CountOption{false, "", n}; };
  for (ProblemKind problem : {ProblemKind::merge, ProblemKind::search, ProblemKind::lbs}) {
    const Sizes sizes = default_sizes(problem);
    CHECK(split_sizes(problem, sizes.a + sizes.b) == sizes);
    CHECK(resolve_sizes(problem, n_of(sizes.a + sizes.b), none, none) == sizes);
  }
  CHECK(split_sizes(ProblemKind::merge, 7) == Sizes{3, 4});
  CHECK(split_sizes(ProblemKind::search, 0) == Sizes{0, 0});
  CHECK(split_sizes(ProblemKind::lbs, 0) == Sizes{0, 0});
  // The load-balancing search keeps one object for the smallest n: n = 1 is one object, no item.
  for (std::uint64_t n = 1; n <= 8; ++n) CHECK(split_sizes(ProblemKind::lbs, n) == Sizes{1, n - 1});
  CHECK(split_sizes(ProblemKind::lbs, 16) == Sizes{2, 14});

  CHECK(resolve_sizes(ProblemKind::merge, n_of(100), count_option("5"), count_option("6")) == Sizes{5, 6});
  CHECK(resolve_sizes(ProblemKind::merge, count_option("11"), count_option("5"), count_option("6")) == Sizes{5, 6});
  CHECK(resolve_sizes(ProblemKind::merge, count_option("100"), count_option("1"), none) == Sizes{1, 99});
  CHECK(resolve_sizes(ProblemKind::merge, count_option("100"), none, count_option("2^5")) == Sizes{68, 32});
  CHECK(resolve_sizes(ProblemKind::merge, n_of(100), none, count_option("2^5")) == Sizes{68, 32});
  CHECK_THROWS_AS(resolve_sizes(ProblemKind::merge, count_option("12"), count_option("5"), count_option("6")),
                  UsageError);
  CHECK_THROWS_AS(resolve_sizes(ProblemKind::merge, count_option("4"), count_option("5"), none), UsageError);
  CHECK_THROWS_AS(count_option("abc"), std::invalid_argument);
  CHECK(count_option("2^20+3").value == (std::uint64_t{1} << 20) + 3);
  CHECK(count_option("2^20+3").text == "2^20+3");
}

namespace {

/// Parses @p arguments as main does and returns the plan (throws UsageError like main).
Plan plan_of(const std::vector<std::string>& arguments) {
  ParsedChapter<Plan> parsed(chapter());
  const auto code = parsed.parse(arguments);
  if (code) throw UsageError("parse exit code " + std::to_string(*code));
  return parsed.plan();
}

/// The one line the chapter's parser prints when it refuses @p arguments (testing::refusal_of).
std::string refusal_of(const std::vector<std::string>& arguments) { return testing::refusal_of(chapter(), arguments); }

}  // namespace

TEST_CASE("options: the plan of a command line, and the combinations that do nothing are refused") {
  // --problem picks the table and the default sizes in any spelling.
  for (const auto& [arguments, problem] : std::vector<std::pair<std::vector<std::string>, ProblemKind>>{
           {{}, ProblemKind::merge},
           {{"--problem", "search"}, ProblemKind::search},
           {{"--problem=lbs"}, ProblemKind::lbs},
           {{"--n", "2^20", "--problem", "lbs"}, ProblemKind::lbs}}) {
    ParsedChapter<Plan> parsed(chapter());
    REQUIRE_FALSE(parsed.parse(arguments).has_value());
    CHECK(parsed.plan().problem == problem);
    CHECK(parsed.cli().chapter().default_n == chapter_info(problem).default_n);
    CHECK(parsed.cli().stages().size() == stage_infos(problem).size());
    CHECK(parsed.plan().sizes == split_sizes(problem, parsed.cli().options().n));
  }
  CHECK(plan_of({"--problem", "search"}).sizes == default_sizes(ProblemKind::search));
  CHECK(refusal_of({"--problem", "bogus"}).find("--problem") == 0);
  CHECK(refusal_of({"--problem", "lbs", "--problem", "search"}).find("--problem") == 0);
  const Plan defaults = plan_of({});
  CHECK(defaults.problem == ProblemKind::merge);
  CHECK(defaults.sizes == Sizes{std::uint64_t{1} << 27, std::uint64_t{1} << 27});
  CHECK(defaults.distribution == Distribution::uniform);
  CHECK_FALSE(defaults.wide_keys);
  CHECK_FALSE(defaults.pairs);
  CHECK(defaults.size_options == "the default sizes (|A| + |B| = 2^28)");
  const Plan skewed = plan_of({"--na", "1", "--nb", "2^24", "--pairs", "--type", "int64", "--distribution", "equal"});
  CHECK(skewed.sizes == Sizes{1, std::uint64_t{1} << 24});
  CHECK(skewed.pairs);
  CHECK(skewed.wide_keys);
  CHECK(skewed.distribution == Distribution::equal);
  CHECK(skewed.size_options == "--na 1 --nb 2^24");
  const Plan search = plan_of({"--problem", "search", "--bound", "upper", "--n", "100"});
  CHECK(search.bounds == Bounds::upper);
  CHECK(search.sizes == Sizes{20, 80});
  const Plan lbs = plan_of({"--problem", "lbs", "--n", "2^20"});
  CHECK(lbs.sizes == Sizes{std::uint64_t{1} << 17, 7 * (std::uint64_t{1} << 17)});
  CHECK_THROWS_AS(plan_of({"--problem", "lbs", "--pairs"}), UsageError);
  CHECK_THROWS_AS(plan_of({"--problem", "search", "--pairs"}), UsageError);
  CHECK_THROWS_AS(plan_of({"--bound", "upper"}), UsageError);
  CHECK_THROWS_AS(plan_of({"--problem", "lbs", "--type", "int64"}), UsageError);
  CHECK_THROWS_AS(plan_of({"--problem", "lbs", "--na", "0", "--nb", "5"}), UsageError);
  CHECK_THROWS_AS(plan_of({"--problem", "search", "--nb", "2^31", "--na", "1"}), UsageError);
  CHECK_THROWS_AS(plan_of({"--n", "10", "--na", "3", "--nb", "4"}), UsageError);
  CHECK_NOTHROW(plan_of({"--n", "7", "--na", "3", "--nb", "4"}));
  CHECK_THROWS_AS(plan_of({"--na", "abc"}), UsageError);
  CHECK_THROWS_AS(plan_of({"--na", ""}), UsageError);
  CHECK_THROWS_AS(plan_of({"--analyze", "--stage", "1"}), UsageError);
}

TEST_CASE("options: n = 1 works for every problem, and a size refusal names only what was typed") {
  for (const char* problem : {"merge", "search", "lbs"})
    for (int n = 0; n <= 9; ++n) {
      CAPTURE(problem);
      CAPTURE(n);
      const Plan plan = plan_of({"--problem", problem, "--n", std::to_string(n)});
      CHECK(plan.sizes.a + plan.sizes.b == static_cast<std::uint64_t>(n));
    }
  CHECK(plan_of({"--problem", "lbs", "--n", "1"}).sizes == Sizes{1, 0});
  CHECK(plan_of({"--problem", "lbs", "--n", "7"}).sizes == Sizes{1, 6});

  // --na and --nb without --n: |A| + |B| is theirs, whatever the default --n is.
  CHECK(plan_of({"--na", "7", "--nb", "2^20"}).sizes == Sizes{7, std::uint64_t{1} << 20});
  const std::string both_huge = refusal_of({"--na", "2^40", "--nb", "2^40"});
  CHECK(both_huge.find("--na 2^40 --nb 2^40") == 0);
  CHECK(both_huge.find("2^41") != std::string::npos);
  const std::string overflow = refusal_of({"--na", "2^63", "--nb", "2^63"});
  CHECK(overflow.find("--na 2^63") == 0);
  CHECK(overflow.find("above 2^40") != std::string::npos);
  // The haystack's limit is said about the --nb typed, not about a default --n.
  const std::string haystack = refusal_of({"--problem", "search", "--nb", "2^31"});
  CHECK(haystack.find("--nb 2^31") == 0);
  CHECK(haystack.find("2^31 - 1") != std::string::npos);
  CHECK(haystack.find("--n ") == std::string::npos);
  // A part above the default total names the default, and what to give instead.
  const std::string above_default = refusal_of({"--problem", "search", "--nb", "2^30"});
  CHECK(above_default.find("--nb 2^30") == 0);
  CHECK(above_default.find("the default 83886080") != std::string::npos);
  CHECK(above_default.find("--na or --n") != std::string::npos);
  const std::string no_object = refusal_of({"--problem", "lbs", "--n", "5", "--nb", "5"});
  CHECK(no_object.find("--n 5 --nb 5") == 0);
  CHECK(no_object.find("at least one object") != std::string::npos);
  const std::string derived = refusal_of({"--problem", "search", "--n", "2^32"});
  CHECK(derived.find("--n 2^32 (|B|)") == 0);
  for (const std::vector<std::string>& arguments :
       {std::vector<std::string>{"--problem", "lbs", "--n", "1"}, {"--problem", "lbs", "--n", "7"}, {"--n", "1"}})
    CHECK(refusal_of(arguments).empty());
}

TEST_CASE("options: the memory a run needs, from its sizes (host: inputs, reference, its copy, the output read back)") {
  Plan plan;
  plan.sizes = {1000, 3000};
  CHECK(host_bytes_needed(plan) == doctest::Approx(4.0 * 4.0 * 4000));
  CHECK(device_bytes_needed(plan) ==
        doctest::Approx(2.0 * 4.0 * 4000 + static_cast<double>(partition_workspace_bytes(4000))));
  plan.pairs = true;
  plan.wide_keys = true;
  CHECK(host_bytes_needed(plan) == doctest::Approx(4.0 * 12.0 * 4000));
  plan.pairs = false;
  plan.problem = ProblemKind::search;
  CHECK(host_bytes_needed(plan) == doctest::Approx(8.0 * 4000 + 12.0 * 1000));
  plan.problem = ProblemKind::lbs;
  plan.wide_keys = false;
  CHECK(host_bytes_needed(plan) == doctest::Approx(12.0 * 1000 + 24.0 * 3000));
  CHECK(device_bytes_needed(plan) ==
        doctest::Approx(4.0 * 1000 + 8.0 * 3000 + static_cast<double>(partition_workspace_bytes(4000))));
}

TEST_CASE("the tables: stages in teaching order, library rows last, tiles odd and large enough") {
  const auto check_tiles = [](const auto& stage, const LaunchShape& shape) {
    CAPTURE(stage.name);
    CAPTURE(describe(shape));
    if (shape.items == 0) return;
    CHECK(shape.threads % 32 == 0);
    if (stage.traits.work == Work::tiled) {
      CHECK(shape.threads * shape.items >= kMinTileItems);
      CHECK(shape.items % 2 == 1);
    }
  };
  const auto names = [](const auto& table) {
    std::vector<std::string> out;
    for (const auto& stage : table) out.push_back(stage.name);
    return out;
  };
  CHECK(names(merge_stages<std::int32_t>()) == std::vector<std::string>{"naive", "path-per-thread", "two-level",
                                                                        "tuned", "cub::DeviceMerge", "thrust::merge"});
  CHECK(names(merge_stages<std::int64_t>()) == names(merge_stages<std::int32_t>()));
  CHECK(names(search_stages<std::int32_t>()) ==
        std::vector<std::string>{"binary-search", "merge-path", "thrust::lower_bound"});
  CHECK(names(lbs_stages()) == std::vector<std::string>{"binary-search", "merge-path", "thrust::upper_bound+for_each"});
  CHECK(merge_stages<std::int32_t>()[3].number == 4);
  CHECK(merge_stages<std::int32_t>()[4].number == 0);
  CHECK(merge_stages<std::int32_t>()[4].kind == RowKind::library);
  for (const auto& stage : merge_stages<std::int32_t>()) {
    check_tiles(stage, stage.shape);
    for (const LaunchShape& shape : stage.sweep) check_tiles(stage, shape);
  }
  for (const auto& stage : merge_stages<std::int64_t>()) {
    check_tiles(stage, stage.shape);
    for (const LaunchShape& shape : stage.sweep) check_tiles(stage, shape);
  }
  for (const auto& stage : search_stages<std::int32_t>())
    for (const LaunchShape& shape : stage.sweep) check_tiles(stage, shape);
  for (const auto& stage : lbs_stages())
    for (const LaunchShape& shape : stage.sweep) check_tiles(stage, shape);
  // Every row says how it works (what --analyze counts): the library rows alone leave it to the
  // library, and a tiled row says what else its memory traffic does.
  const auto check_traits = [](const auto& table) {
    for (const auto& stage : table) {
      CAPTURE(stage.name);
      CHECK((stage.traits.work == Work::library) == (stage.kind == RowKind::library));
      CHECK((stage.traits.work == Work::tiled) == !stage.traits.note.empty());
    }
  };
  check_traits(merge_stages<std::int32_t>());
  check_traits(merge_stages<std::int64_t>());
  check_traits(search_stages<std::int32_t>());
  check_traits(lbs_stages());
  // Every kernel row lists the shape it runs with among the shapes its sweep tries.
  for (const auto& stage : merge_stages<std::int32_t>())
    if (!stage.sweep.empty())
      CHECK(std::find(stage.sweep.begin(), stage.sweep.end(), stage.shape) != stage.sweep.end());
  // The partition workspace holds the boundaries of the smallest tile at any size.
  for (std::size_t total : {std::size_t{0}, std::size_t{1}, std::size_t{895}, std::size_t{896}, std::size_t{897},
                            std::size_t{1} << 28, (std::size_t{1} << 33) + 5})
    CHECK(partition_workspace_bytes(total) >= ((total + kMinTileItems - 1) / kMinTileItems + 1) * sizeof(std::int64_t));
}

TEST_CASE_TEMPLATE("stage 4's variant rows: one per change, each the stage at its shape but the tile row", K,
                   std::int32_t, std::int64_t) {
  const std::vector<MergeStage<K>>& table = merge_stages<K>();
  for (const MergeStage<K>& stage : table) {
    CAPTURE(stage.name);
    CHECK(stage.variants.empty() == (stage.name != "tuned"));
  }
  const MergeStage<K>& tuned = table[3];
  REQUIRE(tuned.name == "tuned");
  std::vector<std::string> changes;
  for (const MergeStage<K>& variant : tuned.variants) {
    CAPTURE(variant.variant);
    changes.push_back(variant.variant);
    CHECK(variant.number == 4);
    CHECK(variant.name == tuned.name);
    CHECK(variant.kind == RowKind::kernel);
    CHECK(variant.sweep.empty());
    CHECK(variant.variants.empty());
    CHECK((variant.launch != nullptr && variant.launch != tuned.launch));
    CHECK(variant.lesson != tuned.lesson);
    CHECK(variant.traits.work == Work::tiled);
    CHECK(variant.traits.aligned_bytes == tuned.traits.aligned_bytes);
    CHECK(variant.traits.note == tuned.traits.note);
    CHECK(variant.shape.threads * variant.shape.items >= kMinTileItems);
    CHECK(variant.shape.items % 2 == 1);
    if (variant.variant == "swept tile") {
      // Stage 3's tile, which the sweep's replaced.
      CHECK(variant.shape == table[2].shape);
      CHECK(variant.shape != tuned.shape);
    } else {
      CHECK(variant.shape == tuned.shape);
    }
  }
  CHECK(changes == std::vector<std::string>{"by-bits partitions", "16-byte loads", "values with keys",
                                            "warp-level stores", "swept tile"});
  // --variants runs each variant right after its stage; --list shows them there.
  const std::vector<MergeStage<K>> rows = with_variants(table);
  REQUIRE(rows.size() == table.size() + changes.size());
  CHECK(rows[3].variant.empty());
  CHECK(rows[3].variants.empty());
  for (std::size_t i = 0; i < changes.size(); ++i) CHECK(rows[4 + i].variant == changes[i]);
  CHECK(rows[4 + changes.size()].kind == RowKind::library);
  CHECK(describe(table).size() == rows.size());
}

TEST_CASE("--analyze: the Merge Path picture's cross points are merge_path's, the talk's examples are there") {
  const std::vector<int> a = {1, 2, 2, 4, 5, 5, 7, 8, 9, 9}, b = {2, 3, 5, 5, 6, 9, 10, 11};
  const std::vector<PathStep> steps = merge_steps(a, b);
  REQUIRE(steps.size() == 18);
  CHECK(steps[1].from_a);
  CHECK(steps[2].from_a);  // A's second 2 before B's 2: ties take A
  CHECK_FALSE(steps[3].from_a);
  const std::string picture = merge_path_picture(a, b, 2, 3);
  CHECK(picture.find("tile 0: diagonals 0 .. 6, A[0, 4), B[0, 2)") != std::string::npos);
  CHECK(picture.find("tile 2: diagonals 12 .. 18, A[7, 10), B[5, 8)") != std::string::npos);
  for (int t = 0; t < 6; ++t) {
    const int path = merge_path(a.data(), 10, b.data(), 8, 3 * t, Less{});
    const std::string point = "(" + std::to_string(path) + ", " + std::to_string(3 * t - path) + ")";
    CHECK_MESSAGE(picture.find(point) != std::string::npos, "thread ", t, " cross point ", point);
  }
  CHECK(picture.find("0---o---o---1") != std::string::npos);
  const std::string naive = naive_ranks(a, b);
  CHECK(naive.find("lower_bound") != std::string::npos);

  Plan plan;
  plan.sizes = default_sizes(ProblemKind::merge);
  const std::string merge_text = analyze(plan);
  CHECK(merge_text.find("2.147 GB") != std::string::npos);     // 2^28 int32 read + written
  CHECK(merge_text.find("268,435,456") != std::string::npos);  // the naive stage's searches
  CHECK(merge_text.find("0.641 ms") != std::string::npos);
  plan.problem = ProblemKind::search;
  plan.sizes = default_sizes(ProblemKind::search);
  const std::string search_text = analyze(plan);
  CHECK(search_text.find("lower bound: 0 0 3 5 7 7 7 7 9") != std::string::npos);
  CHECK(search_text.find("upper bound: 3 3 4 5 9 9 9 9 9") != std::string::npos);
  plan.problem = ProblemKind::lbs;
  plan.sizes = default_sizes(ProblemKind::lbs);
  const std::string lbs_text = analyze(plan);
  CHECK(lbs_text.find("40 objects generate 79 items") != std::string::npos);
  CHECK(lbs_text.find("70: 36 37 37 37 37 39 39 39 39") != std::string::npos);
}

TEST_CASE("--analyze --format json: the diagrams' data are merge_path's, the talk's examples, the work table") {
  Plan plan;
  plan.sizes = default_sizes(ProblemKind::merge);
  const nlohmann::json document = nlohmann::json::parse(analysis_json(plan));
  CHECK(document["analysis"] == "merge");
  CHECK(document["chapter"] == "03");

  // The small merge: the path is std::merge's order, every tile and thread cut is merge_path's.
  const nlohmann::json& merge = document["merge_path"];
  const std::vector<int> a = merge["a"], b = merge["b"];
  const int na = static_cast<int>(a.size()), nb = static_cast<int>(b.size());
  REQUIRE(merge["path"].size() == a.size() + b.size());
  std::vector<int> merged;
  for (const auto& step : merge["path"]) merged.push_back(step["key"]);
  CHECK(std::is_sorted(merged.begin(), merged.end()));
  const int nt = merge["nt"], vt = merge["vt"];
  for (const auto& [list, spacing] : {std::pair{"tiles", nt * vt}, std::pair{"threads", vt}}) {
    int first = 0;
    for (const auto& cut : merge[list]) {
      CAPTURE(list);
      CAPTURE(first);
      CHECK(cut["first"] == first);
      const int last = std::min(na + nb, first + spacing);
      CHECK(cut["last"] == last);
      CHECK(cut["a_begin"] == merge_path(a.data(), na, b.data(), nb, first, Less{}));
      CHECK(cut["a_end"] == merge_path(a.data(), na, b.data(), nb, last, Less{}));
      CHECK(cut["a_begin"].get<int>() + cut["b_begin"].get<int>() == first);
      first = last;
    }
    CHECK(first == na + nb);
  }
  CHECK(merge["threads"][4]["tile"] == 2);
  CHECK(merge["naive"]["a_goes_to"] == std::vector<int>{0, 1, 2, 5, 6, 7, 11, 12, 13, 14});

  CHECK(document["sorted_search"]["lower"] == std::vector<int>{0, 0, 3, 5, 7, 7, 7, 7, 9});
  CHECK(document["sorted_search"]["upper"] == std::vector<int>{3, 3, 4, 5, 9, 9, 9, 9, 9});

  // The load-balancing example: the slide's objects, and a merge of items and offsets whose tiles
  // all take nt x vt steps (the last the rest), whatever their items.
  const nlohmann::json& lbs = document["load_balance"];
  CHECK(lbs["counts"] == talk_lbs_counts());
  CHECK(lbs["objects"] == talk_lbs_objects());
  const int items = lbs["items"];
  CHECK(items == 79);
  REQUIRE(lbs["steps"].size() == static_cast<std::size_t>(items) + talk_lbs_counts().size());
  int item = 0, started = 0;
  for (const auto& step : lbs["steps"]) {
    if (step.contains("starts")) {
      CHECK(step["starts"] == started++);
    } else {
      CHECK(step["item"] == item);
      CHECK(step["object"] == talk_lbs_objects()[static_cast<std::size_t>(item)]);
      CHECK(step["object"] == started - 1);  // the item belongs to the last object started
      ++item;
    }
  }
  const int tile_steps = lbs["nt"].get<int>() * lbs["vt"].get<int>();
  int covered = 0;
  for (const auto& tile : lbs["tiles"]) {
    const int steps = tile["items_end"].get<int>() - tile["items_begin"].get<int>() + tile["objects_end"].get<int>() -
                      tile["objects_begin"].get<int>();
    CHECK(steps == tile["last"].get<int>() - tile["first"].get<int>());
    CHECK((steps == tile_steps || tile["last"] == items + 40));
    covered += steps;
  }
  CHECK(covered == items + 40);
  CHECK(lbs["tiles"][1]["items_begin"] == 14);

  // The work table at the default merge: the text's numbers.
  const nlohmann::json& work = document["work"];
  CHECK(work["problem"] == "merge");
  CHECK(work["stages"][0]["global_searches"] == 268435456u);
  CHECK(work["stages"][3]["shape"] == "512x23");
  CHECK(work["bytes_read"].get<double>() + work["bytes_written"].get<double>() == doctest::Approx(2.147483648e9));
  plan.problem = ProblemKind::lbs;
  plan.sizes = default_sizes(ProblemKind::lbs);
  CHECK(nlohmann::json::parse(analysis_json(plan))["work"]["stages"][1]["shared_searches"] == 5835554u);

  // --format picks the text or the JSON; nothing else.
  CHECK(analysis(Format::table, plan) == analyze(plan));
  CHECK(analysis(Format::json, plan) == analysis_json(plan));
  CHECK_THROWS_AS(analysis(Format::markdown, plan), UsageError);
}

namespace {
/// warp_merge_path's search with the warp's lanes as a loop (device/warp_merge_path.cuh): the
/// answer, and through @p steps the number of steps it took.
template <Bounds bounds, class Index>
Index kary_merge_path(const int* a, Index a_count, const int* b, Index b_count, Index diagonal, int probes,
                      int& steps) {
  MergePathWindow<Index> window = merge_path_window(a_count, b_count, diagonal);
  steps = 0;
  while (window.begin < window.end) {
    int taking_a = 0;
    bool seen_not_taking = false;
    bool monotone = true;  // the probes that take A come first
    for (int k = 0; k < probes; ++k) {
      const Index probe = kary_probe(window, probes, k);
      const bool takes = probe < window.end && merge_takes_a<bounds>(a[probe], b[diagonal - 1 - probe], Less{});
      monotone = monotone && (!takes || !seen_not_taking);
      seen_not_taking = seen_not_taking || !takes;
      taking_a += takes ? 1 : 0;
    }
    const MergePathWindow<Index> next = kary_narrow(window, probes, taking_a);
    REQUIRE(monotone);
    REQUIRE(
        (next.begin >= window.begin && next.end <= window.end && next.end - next.begin < window.end - window.begin));
    window = next;
    ++steps;
  }
  return window.begin;
}
}  // namespace

TEST_CASE("the k-ary Merge Path steps (a warp's 32 probes) find merge_path's cross point in log_k steps") {
  std::mt19937_64 rng(fresh_seed());
  for (const int probes : {2, 3, 32}) {
    for (int trial = 0; trial < 200; ++trial) {
      std::uniform_int_distribution<int> size(0, trial < 100 ? 40 : 3000);
      const int range = trial % 3 == 0 ? 2 : trial % 3 == 1 ? 8 : 100000;
      const std::vector<int> a = sorted_random(rng, size(rng), range), b = sorted_random(rng, size(rng), range);
      const int na = static_cast<int>(a.size()), nb = static_cast<int>(b.size());
      std::vector<int> diagonals;  // every diagonal of a small grid; every 7th and the last of a large one
      for (int diagonal = 0; diagonal <= na + nb; diagonal += na + nb > 200 ? 7 : 1) diagonals.push_back(diagonal);
      diagonals.push_back(na + nb);
      for (const int diagonal : diagonals) {
        CAPTURE(probes);
        CAPTURE(diagonal);
        int steps = 0;
        CHECK(kary_merge_path<Bounds::lower>(a.data(), na, b.data(), nb, diagonal, probes, steps) ==
              merge_path(a.data(), na, b.data(), nb, diagonal, Less{}));
        // Each step leaves fewer than ceil(L / probes) places: about log_probes(L) steps.
        const MergePathWindow<int> window = merge_path_window(na, nb, diagonal);
        int bound = 0;
        for (long long places = window.end - window.begin; places > 0; places = (places + probes - 1) / probes - 1)
          ++bound;
        CHECK(steps <= bound);
        CHECK(kary_merge_path<Bounds::upper>(a.data(), na, b.data(), nb, diagonal, probes, steps) ==
              merge_path<Bounds::upper>(a.data(), na, b.data(), nb, diagonal, Less{}));
        CHECK(kary_merge_path<Bounds::lower>(a.data(), std::size_t(na), b.data(), std::size_t(nb),
                                             std::size_t(diagonal), probes, steps) ==
              std::size_t(merge_path(a.data(), na, b.data(), nb, diagonal, Less{})));
      }
    }
  }
  // A diagonal of 2^19 places, the last pass of a 2^20-key sort: 4 steps of 32 probes, 20 of merge_path's.
  CHECK(merge_path_max_steps(1 << 19, 1 << 19, 1 << 19) == 20);
  int places = 1 << 19, steps = 0;
  for (; places > 0; places = (places + 31) / 32 - 1) ++steps;
  CHECK(steps == 4);
}

TEST_CASE("merge_path_by_bits finds merge_path's cross point on every diagonal, both bounds, 64-bit too") {
  std::mt19937_64 rng(fresh_seed());
  for (int trial = 0; trial < 300; ++trial) {
    std::uniform_int_distribution<int> size(0, 40);
    const int range = trial % 3 == 0 ? 2 : trial % 3 == 1 ? 8 : 1000;
    const std::vector<int> a = sorted_random(rng, size(rng), range), b = sorted_random(rng, size(rng), range);
    const int na = static_cast<int>(a.size()), nb = static_cast<int>(b.size());
    for (int diagonal = 0; diagonal <= na + nb; ++diagonal) {
      CAPTURE(diagonal);
      CHECK(merge_path_by_bits(a.data(), na, b.data(), nb, diagonal, Less{}) ==
            merge_path(a.data(), na, b.data(), nb, diagonal, Less{}));
      CHECK(merge_path_by_bits<Bounds::upper>(a.data(), na, b.data(), nb, diagonal, Less{}) ==
            merge_path<Bounds::upper>(a.data(), na, b.data(), nb, diagonal, Less{}));
      CHECK(merge_path_by_bits(a.data(), std::size_t(na), b.data(), std::size_t(nb), std::size_t(diagonal), Less{}) ==
            std::size_t(merge_path(a.data(), na, b.data(), nb, diagonal, Less{})));
    }
  }
  // The load-balancing search's partitions: a counting sequence against offsets.
  const std::vector<int> offsets = {0, 0, 3, 3, 3, 9, 10};
  for (int diagonal = 0; diagonal <= 12 + 7; ++diagonal)
    CHECK(merge_path_by_bits<Bounds::upper>(CountingIterator<int>{0}, 12, offsets.data(), 7, diagonal, Less{}) ==
          merge_path<Bounds::upper>(CountingIterator<int>{0}, 12, offsets.data(), 7, diagonal, Less{}));
}
