// CPU tests of chapter 10's set operations: the reference on hand-made multisets for every op,
// the per-element decisions and places and the balanced cuts with the serial loop against
// std::set_* on random multisets with long runs of duplicates (the code the kernels run,
// set_ops.hpp), stage 3's compile-time loop and near searches, the cuts' own promises, the input
// classes, and --analyze's drawing.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <utility>
#include <vector>

#include "setop_analysis.hpp"
#include "setop_data.hpp"

using namespace stepwise;
using namespace stepwise::segmented;

namespace {

using Index = std::int64_t;
using Keys = std::vector<SetKey>;

const SetOp kOps[] = {SetOp::intersection, SetOp::union_, SetOp::difference, SetOp::symmetric_difference};

/// Random sorted multisets: up to @p most elements each, keys in [0, @p range): small ranges give long runs.
SetInputs random_sets(std::mt19937& rng, int most, int range) {
  SetInputs sets;
  sets.a.resize(rng() % (most + 1));
  sets.b.resize(rng() % (most + 1));
  for (SetKey& key : sets.a) key = static_cast<SetKey>(rng() % range);
  for (SetKey& key : sets.b) key = static_cast<SetKey>(rng() % range);
  std::sort(sets.a.begin(), sets.a.end());
  std::sort(sets.b.begin(), sets.b.end());
  return sets;
}

/// Stage 1's algorithm on the host: decisions, their exclusive scan, then every kept element placed.
Keys per_element(SetOp op, const SetInputs& sets) {
  const auto a_count = static_cast<Index>(sets.a.size());
  const auto b_count = static_cast<Index>(sets.b.size());
  std::vector<Index> places(sets.a.size() + sets.b.size() + 1, 0);
  for (Index e = 0; e < a_count + b_count; ++e)
    places[e + 1] =
        places[e] + (e < a_count ? element_kept_a(op, sets.a.data(), a_count, sets.b.data(), b_count, e)
                                 : element_kept_b(op, sets.a.data(), a_count, sets.b.data(), b_count, e - a_count));
  const Index kept_a = places[a_count];
  Keys out(static_cast<std::size_t>(places.back()), -1);
  for (Index i = 0; i < a_count; ++i) {
    if (places[i + 1] == places[i]) continue;
    const Index lower = search_bound<Bounds::lower>(sets.b.data(), b_count, sets.a[i], Less{});
    out[output_place_a(places[i], places[a_count + lower] - kept_a)] = sets.a[i];
  }
  for (Index j = 0; j < b_count; ++j) {
    if (places[a_count + j + 1] == places[a_count + j]) continue;
    const Index upper = search_bound<Bounds::upper>(sets.a.data(), a_count, sets.b[j], Less{});
    out[output_place_b(places[a_count + j] - kept_a, places[upper])] = sets.b[j];
  }
  return out;
}

/// Stages 2 and 3's algorithm on the host: balanced cuts every @p spacing diagonals, the serial
/// loop on each piece, the pieces' outputs concatenated.
Keys tiled(SetOp op, const SetInputs& sets, Index spacing) {
  const auto a_count = static_cast<Index>(sets.a.size());
  const auto b_count = static_cast<Index>(sets.b.size());
  Keys out;
  Cut<Index> from{0, 0};
  for (Index diagonal = spacing;; diagonal += spacing) {
    const Index d = std::min(diagonal, a_count + b_count);
    const Cut<Index> to = balanced_cut(sets.a.data(), a_count, sets.b.data(), b_count, d);
    serial_set_op<1 << 16>(op, sets.a.data(), from.a, to.a, sets.b.data(), from.b, to.b,
                           [&](SetKey key) { out.push_back(key); });
    from = to;
    if (d == a_count + b_count) break;
  }
  return out;
}

/// The kernels' two levels on the host: balanced cuts every @p threads x @p items diagonals give the
/// tiles; in each tile's own copy of its two ranges (as shared memory holds them), balanced cuts every
/// @p items diagonals give the threads' pieces, and the serial loop runs on each with at most
/// items + 1 steps (SetTile::kPiece). Fails the test if a piece holds more.
Keys two_level(SetOp op, const SetInputs& sets, int threads, int items) {
  const auto a_count = static_cast<Index>(sets.a.size());
  const auto b_count = static_cast<Index>(sets.b.size());
  const Index tile = static_cast<Index>(threads) * items;
  Keys out;
  Cut<Index> from{0, 0};
  for (Index diagonal = tile;; diagonal += tile) {
    const Index d = std::min(diagonal, a_count + b_count);
    const Cut<Index> to = balanced_cut(sets.a.data(), a_count, sets.b.data(), b_count, d);
    const Keys a(sets.a.begin() + from.a, sets.a.begin() + to.a);
    const Keys b(sets.b.begin() + from.b, sets.b.begin() + to.b);
    const int count = static_cast<int>(a.size() + b.size());
    REQUIRE(count <= tile + 1);
    for (int t = 0; t < threads; ++t) {
      const Cut<int> begin = balanced_cut(a.data(), static_cast<int>(a.size()), b.data(), static_cast<int>(b.size()),
                                          std::min(items * t, count));
      const Cut<int> end = t + 1 < threads ? balanced_cut(a.data(), static_cast<int>(a.size()), b.data(),
                                                          static_cast<int>(b.size()), std::min(items * (t + 1), count))
                                           : Cut<int>{static_cast<int>(a.size()), static_cast<int>(b.size())};
      REQUIRE(end.a - begin.a + end.b - begin.b <= items + 1);
      serial_set_op<1 << 16>(op, a.data(), begin.a, end.a, b.data(), begin.b, end.b,
                             [&](SetKey key) { out.push_back(key); });
    }
    from = to;
    if (d == a_count + b_count) break;
  }
  return out;
}

/// Stage 3's loop on the host: two_level()'s tiles and pieces (cut by the near searches), each
/// piece run by serial_set_op_masked with the op fixed and kSteps steps (balanced_piece_steps(kItems)
/// as the kernel runs it, or kItems + 1), the kept candidates in step order concatenated.
template <int kItems, int kSteps = balanced_piece_steps(kItems)>
Keys two_level_masked(SetOp op, const SetInputs& sets, int threads) {
  const auto a_count = static_cast<Index>(sets.a.size());
  const auto b_count = static_cast<Index>(sets.b.size());
  const Index tile = static_cast<Index>(threads) * kItems;
  Keys out;
  Cut<Index> from{0, 0};
  for (Index diagonal = tile;; diagonal += tile) {
    const Index d = std::min(diagonal, a_count + b_count);
    const Cut<Index> to = balanced_cut<CutSearch::near>(sets.a.data(), a_count, sets.b.data(), b_count, d);
    // As shared memory holds the tile: its A range, its B range, and one key more that the loop reads past B's.
    Keys storage(sets.a.begin() + from.a, sets.a.begin() + to.a);
    const int a_size = static_cast<int>(storage.size());
    storage.insert(storage.end(), sets.b.begin() + from.b, sets.b.begin() + to.b);
    const int count = static_cast<int>(storage.size());
    const int b_size = count - a_size;
    storage.push_back(std::numeric_limits<SetKey>::min());
    const SetKey* a = storage.data();
    const SetKey* b = storage.data() + a_size;
    for (int t = 0; t < threads; ++t) {
      const Cut<int> begin = balanced_cut<CutSearch::near>(a, a_size, b, b_size, std::min(kItems * t, count));
      const Cut<int> end = t + 1 < threads
                               ? balanced_cut<CutSearch::near>(a, a_size, b, b_size, std::min(kItems * (t + 1), count))
                               : Cut<int>{a_size, b_size};
      SetKey keys[kSteps];
      const unsigned mask = with_set_op(op, [&](auto kop) {
        return serial_set_op_masked<decltype(kop)::value>(a, begin.a, end.a, b, begin.b, end.b, keys);
      });
      for (int s = 0; s < kSteps; ++s)
        if ((mask >> s) & 1u) out.push_back(keys[s]);
    }
    from = to;
    if (d == a_count + b_count) break;
  }
  return out;
}

}  // namespace

TEST_CASE("the reference keeps std::set_*'s multiset counts on a hand-made example") {
  const Keys a = {1, 2, 2, 2, 3, 5, 5};
  const Keys b = {2, 2, 4, 5, 5, 5, 6};
  CHECK(set_op_on_cpu(SetOp::intersection, a, b) == Keys{2, 2, 5, 5});
  CHECK(set_op_on_cpu(SetOp::union_, a, b) == Keys{1, 2, 2, 2, 3, 4, 5, 5, 5, 6});
  CHECK(set_op_on_cpu(SetOp::difference, a, b) == Keys{1, 2, 3});
  CHECK(set_op_on_cpu(SetOp::symmetric_difference, a, b) == Keys{1, 2, 3, 4, 5, 6});
  CHECK(set_op_on_cpu(SetOp::difference, b, a) == Keys{4, 5, 6});
  CHECK(set_op_on_cpu(SetOp::union_, {}, b) == b);
  CHECK(set_op_on_cpu(SetOp::intersection, a, {}).empty());
  CHECK(set_op_bound(SetOp::intersection, 7, 9) == 7);
  CHECK(set_op_bound(SetOp::difference, 7, 9) == 7);
  CHECK(set_op_bound(SetOp::union_, 7, 9) == 16);
  CHECK(set_op_bound(SetOp::symmetric_difference, 7, 9) == 16);
}

TEST_CASE("the per-element decisions and places give std::set_* for every op") {
  std::mt19937 rng(10);
  int checked = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const SetInputs sets = random_sets(rng, 24, 1 + trial % 7);
    for (SetOp op : kOps) {
      CAPTURE(trial);
      CAPTURE(to_string(op));
      REQUIRE(per_element(op, sets) == set_op_on_cpu(op, sets.a, sets.b));
      ++checked;
    }
  }
  CHECK(checked == 12000);
}

TEST_CASE("the serial loop on the pieces between balanced cuts gives std::set_* for every op and spacing") {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 2000; ++trial) {
    const SetInputs sets = random_sets(rng, 30, 1 + trial % 6);
    for (SetOp op : kOps)
      for (Index spacing : {1, 2, 3, 4, 7, 64}) {
        CAPTURE(trial);
        CAPTURE(to_string(op));
        CAPTURE(spacing);
        REQUIRE(tiled(op, sets, spacing) == set_op_on_cpu(op, sets.a, sets.b));
      }
  }
}

TEST_CASE("tiles cut into threads' pieces, as the kernels cut them, give std::set_* for every op") {
  std::mt19937 rng(13);
  for (int trial = 0; trial < 1500; ++trial) {
    const SetInputs sets = random_sets(rng, 60, 1 + trial % 8);
    for (SetOp op : kOps)
      for (const auto& [threads, items] : {std::pair{1, 1}, std::pair{2, 3}, std::pair{4, 2}, std::pair{3, 7}}) {
        CAPTURE(trial);
        CAPTURE(to_string(op));
        CAPTURE(threads);
        CAPTURE(items);
        REQUIRE(two_level(op, sets, threads, items) == set_op_on_cpu(op, sets.a, sets.b));
      }
  }
}

TEST_CASE(
    "the compile-time loop with candidates in registers gives std::set_* on every piece in balanced_piece_steps "
    "steps") {
  std::mt19937 rng(17);
  for (int trial = 0; trial < 1500; ++trial) {
    const SetInputs sets = random_sets(rng, 60, 1 + trial % 8);
    for (SetOp op : kOps)
      for (int threads : {1, 2, 3, 4}) {
        CAPTURE(trial);
        CAPTURE(to_string(op));
        CAPTURE(threads);
        const Keys expected = set_op_on_cpu(op, sets.a, sets.b);
        REQUIRE(two_level_masked<1>(op, sets, threads) == expected);
        REQUIRE(two_level_masked<2>(op, sets, threads) == expected);
        REQUIRE(two_level_masked<3>(op, sets, threads) == expected);
        REQUIRE(two_level_masked<7>(op, sets, threads) == expected);
        REQUIRE(two_level_masked<7, 8>(op, sets, threads) == expected);
      }
  }
}

TEST_CASE("the galloping searches find std::lower_bound and std::upper_bound") {
  std::mt19937 rng(19);
  for (int trial = 0; trial < 3000; ++trial) {
    Keys keys(rng() % 70);
    for (SetKey& key : keys) key = static_cast<SetKey>(rng() % (1 + trial % 9));
    std::sort(keys.begin(), keys.end());
    const auto count = static_cast<Index>(keys.size());
    for (SetKey key = -1; key <= 1 + trial % 9; ++key) {
      CAPTURE(trial);
      CAPTURE(key);
      const auto lower = static_cast<Index>(std::lower_bound(keys.begin(), keys.end(), key) - keys.begin());
      const auto upper = static_cast<Index>(std::upper_bound(keys.begin(), keys.end(), key) - keys.begin());
      for (Index end = lower; end <= count; ++end) {
        REQUIRE(lower_bound_before(keys.data(), end, key) == lower);
        REQUIRE(lower_bound_before<false>(keys.data(), end, key) == lower);
      }
      for (Index end = 0; end < lower; ++end) {  // every key before end is below
        REQUIRE(lower_bound_before(keys.data(), end, key) == end);
        REQUIRE(lower_bound_before<false>(keys.data(), end, key) == end);
      }
      for (Index from = 0; from <= upper; ++from) {
        REQUIRE(upper_bound_after(keys.data(), from, count, key) == upper);
        REQUIRE(upper_bound_after<false>(keys.data(), from, count, key) == upper);
      }
    }
  }
}

TEST_CASE("balanced cuts by near searches are the cuts by full searches") {
  std::mt19937 rng(23);
  for (int trial = 0; trial < 2000; ++trial) {
    const SetInputs sets = random_sets(rng, 80, 1 + trial % 7);
    const auto a_count = static_cast<Index>(sets.a.size());
    const auto b_count = static_cast<Index>(sets.b.size());
    for (Index d = 0; d <= a_count + b_count; ++d) {
      CAPTURE(trial);
      CAPTURE(d);
      const Cut<Index> full = balanced_cut<CutSearch::full>(sets.a.data(), a_count, sets.b.data(), b_count, d);
      const Cut<Index> near = balanced_cut<CutSearch::near>(sets.a.data(), a_count, sets.b.data(), b_count, d);
      const Cut<Index> two_loops =
          balanced_cut<CutSearch::near_two_loops>(sets.a.data(), a_count, sets.b.data(), b_count, d);
      REQUIRE(near.a == full.a);
      REQUIRE(near.b == full.b);
      REQUIRE(two_loops.a == full.a);
      REQUIRE(two_loops.b == full.b);
    }
  }
}

TEST_CASE("Merge Path's cuts alone would split pairs: the loop on them gets intersections wrong") {
  // A's copies of 5 all come before B's in Merge Path's order: a cut after two of them leaves
  // their partners in the next piece, where nothing pairs them.
  const SetInputs sets{{5, 5, 5}, {5, 5, 5}};
  const Index cut = merge_path<Bounds::lower>(sets.a.data(), Index(3), sets.b.data(), Index(3), Index(2), Less{});
  CHECK(cut == 2);
  Keys merged;
  serial_set_op<8>(SetOp::intersection, sets.a.data(), Index(0), cut, sets.b.data(), Index(0), Index(0),
                   [&](SetKey key) { merged.push_back(key); });
  serial_set_op<8>(SetOp::intersection, sets.a.data(), cut, Index(3), sets.b.data(), Index(0), Index(3),
                   [&](SetKey key) { merged.push_back(key); });
  CHECK(merged == Keys{5});  // one 5 where std::set_intersection keeps three
  const Cut<Index> balanced = balanced_cut(sets.a.data(), Index(3), sets.b.data(), Index(3), Index(2));
  CHECK(balanced.a == 1);
  CHECK(balanced.b == 1);
  CHECK(tiled(SetOp::intersection, sets, 2) == Keys{5, 5, 5});
}

TEST_CASE("balanced cuts never go back, hold the diagonal or one more, and never split a pair") {
  std::mt19937 rng(12);
  for (int trial = 0; trial < 2000; ++trial) {
    const SetInputs sets = random_sets(rng, 40, 1 + trial % 5);
    const auto a_count = static_cast<Index>(sets.a.size());
    const auto b_count = static_cast<Index>(sets.b.size());
    Cut<Index> previous{0, 0};
    for (Index d = 0; d <= a_count + b_count; ++d) {
      CAPTURE(trial);
      CAPTURE(d);
      const Cut<Index> cut = balanced_cut(sets.a.data(), a_count, sets.b.data(), b_count, d);
      REQUIRE(cut.a >= previous.a);
      REQUIRE(cut.b >= previous.b);
      REQUIRE((cut.a + cut.b == d || cut.a + cut.b == d + 1));
      // No pair split: for the key of A's last copy before the cut, as many of B's copies of it
      // (up to A's) lie before the cut as A's, or all of B's.
      for (const SetKey key : {cut.a > 0 ? sets.a[cut.a - 1] : -1, cut.b > 0 ? sets.b[cut.b - 1] : -1}) {
        const auto before = [&](const Keys& keys, Index end) {
          return std::count(keys.begin(), keys.begin() + end, key);
        };
        const auto all = [&](const Keys& keys) { return std::count(keys.begin(), keys.end(), key); };
        const auto pairs = std::min(all(sets.a), all(sets.b));
        REQUIRE(std::min(before(sets.a, cut.a), pairs) == std::min(before(sets.b, cut.b), pairs));
      }
      previous = cut;
    }
    REQUIRE(previous.a == a_count);
    REQUIRE(previous.b == b_count);
  }
}

TEST_CASE("the input classes are sorted, split n as they say, and are what their names say") {
  for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{31}, std::uint64_t{100003}})
    for (const auto& [name, input] : set_input_names()) {
      CAPTURE(n);
      CAPTURE(name);
      const SetInputs sets = make_sets(n, input, 5);
      CHECK(sets.a.size() + sets.b.size() == n);
      CHECK(std::is_sorted(sets.a.begin(), sets.a.end()));
      CHECK(std::is_sorted(sets.b.begin(), sets.b.end()));
      CHECK(make_sets(n, input, 5).a == sets.a);  // reproducible from the seed
      const Keys both = set_op_on_cpu(SetOp::intersection, sets.a, sets.b);
      if (input == SetInput::disjoint) CHECK(both.empty());
      if (input == SetInput::identical) CHECK(both == sets.b);
      if (input == SetInput::empty_a) CHECK(sets.a.empty());
      if (input == SetInput::empty_b) CHECK(sets.b.empty());
      if (input == SetInput::skew) CHECK(sets.b.size() == sets.a.size() / 1000);
      if (n == 100003 && input != SetInput::empty_a && input != SetInput::empty_b) {
        CHECK(sets.a.front() != sets.a.back());  // never one key repeated
        if (input == SetInput::interleaved) CHECK(both.size() > 0);
        if (input == SetInput::duplicates) {  // about 16 copies of a key on each side
          Keys distinct = sets.a;
          distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
          CHECK(sets.a.size() > 8 * distinct.size());
        }
      }
    }
}

TEST_CASE("the input classes stay within int32 past 2^31 elements' worth of gaps") {
  const SetInputs sets = make_sets(std::uint64_t{1} << 22, SetInput::disjoint, 3);
  CHECK(std::is_sorted(sets.b.begin(), sets.b.end()));
  CHECK(set_op_on_cpu(SetOp::intersection, sets.a, sets.b).empty());
}

TEST_CASE("--analyze draws the balanced path of a small example and counts the cuts it moves") {
  const SetInputs sets{{3, 3, 3, 5, 7}, {3, 3, 5, 5}};
  const std::string drawing = draw_balanced_path(SetOp::intersection, sets, 4);
  CHECK(drawing.find("Merge Path's order (ties take A first): A3 A3 A3 B3 B3 A5 B5 B5 A7") != std::string::npos);
  CHECK(drawing.find("A3 B3 A3 B3 A3 A5 B5 B5 A7") != std::string::npos);
  CHECK(drawing.find("diagonal   4: Merge Path's cut (3, 1), balanced (2, 2) moved") != std::string::npos);
  CHECK(moved_cuts(sets, 4) == 1);
  std::vector<SetOpRow> rows(1);
  rows[0].number = 2;
  rows[0].name = "balanced-path";
  rows[0].shape = {2, 2, 0};
  rows[0].traits.work = SetWork::tiled;
  const std::string text = analyze_set_op(SetOp::intersection, sets, rows);
  CHECK(text.find("3 out") != std::string::npos);
  CHECK(text.find("1 cuts balanced") != std::string::npos);
}

TEST_CASE("--analyze --format json: the example's Balanced Path, its pieces giving std::set_* for every op") {
  const SetInputs& sets = setop_example_sets();
  CHECK(std::is_sorted(sets.a.begin(), sets.a.end()));
  CHECK(std::is_sorted(sets.b.begin(), sets.b.end()));
  for (SetOp op : kOps) {
    CAPTURE(to_string(op));
    const BalancedPath path = balanced_path(op, sets, kSetopExampleSpacing);
    CHECK(path.merge_order.size() == sets.a.size() + sets.b.size());
    CHECK(path.balanced_order.size() == sets.a.size() + sets.b.size());
    Keys joined;
    Index a = 0;
    Index b = 0;
    for (const BalancedPiece& piece : path.pieces) {
      CHECK(piece.a_begin == a);  // the pieces follow each other
      CHECK(piece.b_begin == b);
      CHECK(piece.a_end + piece.b_end - piece.diagonal <= 1);  // the diagonal or one more
      a = piece.a_end;
      b = piece.b_end;
      joined.insert(joined.end(), piece.kept.begin(), piece.kept.end());
    }
    CHECK(a == static_cast<Index>(sets.a.size()));
    CHECK(b == static_cast<Index>(sets.b.size()));
    CHECK(joined == set_op_on_cpu(op, sets.a, sets.b));
  }
  // The example moves a cut: the picture shows the balancing at work.
  CHECK(moved_cuts(sets, kSetopExampleSpacing) >= 1);
  std::vector<SetOpRow> rows(2);
  rows[0].number = 1;
  rows[0].name = "per-element-search";
  rows[0].traits.work = SetWork::per_element;
  rows[1].number = 2;
  rows[1].name = "balanced-path";
  rows[1].shape = {2, 2, 0};
  rows[1].traits.work = SetWork::tiled;
  const SetInputs drawn{{3, 3, 3, 5, 7}, {3, 3, 5, 5}};
  const nlohmann::json document =
      nlohmann::json::parse(analyze_set_op_json(SetOp::intersection, SetInput::duplicates, 9, drawn, rows));
  CHECK(document["analysis"] == "segmented");
  CHECK(document["problem"] == "setop");
  CHECK(document["op"] == "intersection");
  CHECK(document["sets"] == "duplicates");
  CHECK(document["n"] == 9);
  CHECK(document["kept"] == 3);
  CHECK(document["rows"][0]["searches"] == 3 * 9 + 3);
  CHECK(document["rows"][1]["moved_cuts"] == moved_cuts(drawn, 4));
  CHECK(document["rows"][1]["passes"] == 2);
  const nlohmann::json& path = document["setop_path"];
  CHECK(path["a"].get<Keys>() == sets.a);  // the fixed example, whatever the run's sets
  CHECK(path["output"].get<Keys>() == set_op_on_cpu(SetOp::intersection, sets.a, sets.b));
  const BalancedPath expected = balanced_path(SetOp::intersection, sets, kSetopExampleSpacing);
  REQUIRE(path["pieces"].size() == expected.pieces.size());
  for (std::size_t p = 0; p < expected.pieces.size(); ++p) {
    CHECK(path["pieces"][p]["cut"][0] == expected.pieces[p].a_end);
    CHECK(path["pieces"][p]["merge_cut"][0] == expected.pieces[p].merge_a);
    CHECK(path["pieces"][p]["moved"] == expected.pieces[p].moved());
  }
}
