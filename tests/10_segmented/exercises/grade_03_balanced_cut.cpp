// The grader of exercise 10-3 (chapters/10_segmented/exercises/README.md): the student's balanced cuts against
// set_ops.hpp's balanced_cut (what stages 2 and 3 call) at every diagonal of small multisets, hand-made and drawn
// with many duplicates; the pieces between the student's cuts run through serial_set_op must give std::set_*'s
// output; and the student's output counts against std::set_*'s for the four operations. Planted wrong answers
// (Merge Path's cut, unbalanced; a count of distinct keys) must fail the same checks.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "03_balanced_cut.hpp"
#include "algorithm/merge_path.hpp"
#include "exercise_checks.hpp"
#include "set_ops.hpp"

using namespace stepwise;
using namespace stepwise::segmented;
using stepwise::testing::Differences;

namespace {

using Keys = std::vector<std::int32_t>;
using CutAnswer = std::function<Cut<std::int64_t>(const Keys&, const Keys&, std::int64_t)>;
using CountAnswer = std::function<std::int64_t(SetOp, const Keys&, const Keys&)>;

constexpr SetOp kOps[] = {SetOp::intersection, SetOp::union_, SetOp::difference, SetOp::symmetric_difference};

const char* name_of(SetOp op) {
  return op == SetOp::intersection ? "intersection"
         : op == SetOp::union_     ? "union"
         : op == SetOp::difference ? "difference"
                                   : "symmetric difference";
}

std::string text(const Keys& keys) {
  std::string out;
  for (std::int32_t key : keys) out += (out.empty() ? "" : " ") + std::to_string(key);
  return "{" + out + "}";
}

/// Hand-made pairs of multisets and drawn ones of few distinct keys (long runs of duplicates on both sides).
std::vector<std::pair<Keys, Keys>> inputs() {
  std::vector<std::pair<Keys, Keys>> cases = {{{}, {}},
                                              {{1}, {}},
                                              {{}, {1}},
                                              {{2}, {2}},
                                              {{1, 2, 2, 2, 5}, {2, 2, 3, 5, 5}},
                                              {{7, 7, 7, 7, 7, 7}, {7, 7}},
                                              {{7, 7}, {7, 7, 7, 7, 7, 7}},
                                              {{1, 3, 5, 7}, {2, 4, 6, 8}},
                                              {{4, 4, 4}, {4, 4, 4}}};
  std::mt19937 random(103);
  for (int trial = 0; trial < 200; ++trial) {
    Keys a(random() % 13);
    Keys b(random() % 13);
    const std::uint32_t distinct = 1 + random() % 4;
    for (std::int32_t& key : a) key = static_cast<std::int32_t>(random() % distinct);
    for (std::int32_t& key : b) key = static_cast<std::int32_t>(random() % distinct);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    cases.push_back({a, b});
  }
  return cases;
}

Keys std_set_op(SetOp op, const Keys& a, const Keys& b) {
  Keys out;
  auto to = std::back_inserter(out);
  switch (op) {
    case SetOp::intersection:
      std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), to);
      break;
    case SetOp::union_:
      std::set_union(a.begin(), a.end(), b.begin(), b.end(), to);
      break;
    case SetOp::difference:
      std::set_difference(a.begin(), a.end(), b.begin(), b.end(), to);
      break;
    case SetOp::symmetric_difference:
      std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), to);
      break;
  }
  return out;
}

/// Every diagonal's cut against balanced_cut; then the pieces between the cuts at every third diagonal through
/// serial_set_op, which must give std::set_*'s output for every operation.
void grade_cuts(Differences& differences, const CutAnswer& answer) {
  for (const auto& [a, b] : inputs()) {
    const auto a_count = static_cast<std::int64_t>(a.size());
    const auto b_count = static_cast<std::int64_t>(b.size());
    const std::string where = "A = " + text(a) + ", B = " + text(b);
    std::vector<Cut<std::int64_t>> cuts;
    for (std::int64_t d = 0; d <= a_count + b_count; ++d) {
      const Cut<std::int64_t> yours = answer(a, b, d);
      const Cut<std::int64_t> model = balanced_cut(a.data(), a_count, b.data(), b_count, d);
      differences.compare(where + ", diagonal " + std::to_string(d) + ", cut in A", yours.a, model.a);
      differences.compare(where + ", diagonal " + std::to_string(d) + ", cut in B", yours.b, model.b);
      if (d % 3 == 0) cuts.push_back(yours);
    }
    cuts.push_back({a_count, b_count});
    for (SetOp op : kOps) {
      Keys pieces;
      for (std::size_t t = 0; t + 1 < cuts.size(); ++t) {
        const Cut<std::int64_t> from = cuts[t];
        const Cut<std::int64_t> to = cuts[t + 1];
        if (to.a < from.a || to.b < from.b) continue;  // a cut that goes back: the differences above name it
        serial_set_op<64>(op, a.data(), from.a, to.a, b.data(), from.b, to.b,
                          [&](std::int32_t key) { pieces.push_back(key); });
      }
      const Keys whole = std_set_op(op, a, b);
      if (pieces != whole)
        differences.add(where + ", " + name_of(op) + " over the pieces between your cuts: " + text(pieces) +
                        ", std::set_*'s " + text(whole));
    }
  }
}

void grade_counts(Differences& differences, const CountAnswer& answer) {
  for (const auto& [a, b] : inputs())
    for (SetOp op : kOps)
      differences.compare(std::string(name_of(op)) + " of A = " + text(a) + ", B = " + text(b) + ", output count",
                          answer(op, a, b), static_cast<std::int64_t>(std_set_op(op, a, b).size()));
}

/// Planted: Merge Path's cut, which may leave A's r-th copy of a key before the cut and B's r-th after it.
Cut<std::int64_t> merge_path_cut(const Keys& a, const Keys& b, std::int64_t diagonal) {
  const auto i = merge_path<Bounds::lower>(a.data(), static_cast<std::int64_t>(a.size()), b.data(),
                                           static_cast<std::int64_t>(b.size()), diagonal, Less{});
  return {i, diagonal - i};
}

/// Planted: set semantics instead of multiset semantics (each distinct key counted once).
std::int64_t distinct_count(SetOp op, const Keys& a, const Keys& b) {
  Keys ua = a;
  Keys ub = b;
  ua.erase(std::unique(ua.begin(), ua.end()), ua.end());
  ub.erase(std::unique(ub.begin(), ub.end()), ub.end());
  return static_cast<std::int64_t>(std_set_op(op, ua, ub).size());
}

}  // namespace

TEST_CASE("exercise 10-3: your cuts are balanced_cut's at every diagonal, and their pieces give std::set_*") {
  Differences differences;
  grade_cuts(differences, exercises::predicted_cut);
  differences.check();
}

TEST_CASE("exercise 10-3: your output counts are std::set_*'s for the four operations") {
  Differences differences;
  grade_counts(differences, exercises::predicted_output_count);
  differences.check();
}

TEST_CASE("exercise 10-3: the grader fails planted wrong answers (Merge Path's cut; distinct keys)") {
  Differences cuts;
  grade_cuts(cuts, merge_path_cut);
  CHECK(cuts.count() > 0);
  Differences counts;
  grade_counts(counts, distinct_count);
  CHECK(counts.count() > 0);
  Differences model;
  grade_cuts(model, [](const Keys& a, const Keys& b, std::int64_t d) {
    return balanced_cut(a.data(), static_cast<std::int64_t>(a.size()), b.data(), static_cast<std::int64_t>(b.size()),
                        d);
  });
  CHECK(model.count() == 0);
}
