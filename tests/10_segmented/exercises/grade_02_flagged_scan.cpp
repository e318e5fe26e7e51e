// The grader of exercise 10-2 (chapters/10_segmented/exercises/README.md): the student's (flag, value) operator
// against flagged.hpp's FlaggedPlus, the very operator the scan kernels run, on every pair of a table of items;
// then the student's tiled scan against the CPU reference (reference.hpp's segscan_reference) and against a
// left-to-right fold by FlaggedPlus, for segments of every --segments distribution, empty ones included, and tiles
// of 1 to 9 items and of stage 2's 128 x 7. Two planted wrong answers (an operator that keeps only the right flag; a
// tiled scan that puts the carry on the right) must fail the same checks.
#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "02_flagged_scan.hpp"
#include "exercise_checks.hpp"
#include "flagged.hpp"
#include "reference.hpp"
#include "segments.hpp"

using namespace stepwise;
using namespace stepwise::segmented;
using exercises::Item;
using stepwise::testing::Differences;

namespace {

using Combine = std::function<Item(const Item&, const Item&)>;
using TiledScan = std::function<std::vector<Item>(const std::vector<Item>&, std::size_t)>;

std::string text(const Item& item) { return "(" + std::to_string(item.flag) + ", " + std::to_string(item.value) + ")"; }

void compare(Differences& differences, const std::string& where, const Item& yours, const Item& model) {
  differences.compare(where + ", flag", yours.flag, model.flag);
  differences.compare(where + ", value", yours.value, model.value);
}

/// Every ordered pair of a table of items: both flags, zero, small, large and wrapping values.
void grade_combine(Differences& differences, const Combine& combine) {
  std::vector<Item> table;
  for (std::uint32_t flag : {0u, 1u})
    for (std::uint32_t value : {0u, 1u, 3u, 5u, 1000u, 0x80000000u, 0xffffffffu}) table.push_back({flag, value});
  const FlaggedPlus<std::uint32_t> plus;
  for (const Item& left : table)
    for (const Item& right : table)
      compare(differences, text(left) + " . " + text(right), combine(left, right), plus(left, right));
}

/// The items of @p values cut by @p offsets: a head flag on the first item of every non-empty segment.
std::vector<Item> items_of(const std::vector<std::uint32_t>& values, const std::vector<std::uint64_t>& offsets) {
  std::vector<Item> items(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) items[i] = {0u, values[i]};
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
    if (offsets[s] < offsets[s + 1]) items[offsets[s]].flag = 1u;
  return items;
}

/// The tiled scan at every tile against the reference's values and a fold's flags.
void grade_scan(Differences& differences, const TiledScan& scan) {
  std::mt19937_64 random(10);
  std::vector<std::pair<std::string, std::vector<std::uint64_t>>> inputs = {
      {"one item", {0, 1}},
      {"4 1 2 | 3 | 1 1", {0, 3, 4, 6}},
      {"an empty first and last segment", {0, 0, 5, 9, 9}},
      {"no head on item 0: empty segments only before it", {0, 0, 0, 7}}};
  for (const char* spec : {"ones", "uniform:3", "uniform:32", "empty:50", "huge", "zipf:1.5"})
    for (std::uint64_t n : {1ull, 17ull, 1000ull, 5000ull})
      inputs.push_back(
          {std::string("--segments ") + spec + ", n = " + std::to_string(n), make_offsets(n, parse_segments(spec), 1)});
  const FlaggedPlus<std::uint32_t> plus;
  for (const auto& [name, offsets] : inputs) {
    std::vector<std::uint32_t> values(offsets.back());
    for (std::uint32_t& value : values) value = static_cast<std::uint32_t>(random());
    if (name == "4 1 2 | 3 | 1 1") values = {4, 1, 2, 3, 1, 1};
    const std::vector<Item> items = items_of(values, offsets);
    const Expected<std::uint32_t> reference = segscan_reference(values, offsets);
    for (std::size_t tile : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{4}, std::size_t{5},
                             std::size_t{7}, std::size_t{8}, std::size_t{9}, std::size_t{896}}) {
      const std::vector<Item> yours = scan(items, tile);
      const std::string where = name + ", tiles of " + std::to_string(tile);
      if (yours.size() != items.size()) {
        differences.add(where + ": " + std::to_string(yours.size()) + " items, not " + std::to_string(items.size()));
        continue;
      }
      Item fold = FlaggedPlus<std::uint32_t>::identity();
      for (std::size_t i = 0; i < items.size(); ++i) {
        fold = plus(fold, items[i]);
        differences.compare(where + ", item " + std::to_string(i) + ", value", yours[i].value, reference.exact[i]);
        differences.compare(where + ", item " + std::to_string(i) + ", flag", yours[i].flag, fold.flag);
      }
    }
  }
}

/// Planted: the combined flag is the right one only, so a pair that covers a head forgets it.
Item right_flag_only(const Item& left, const Item& right) {
  return {right.flag, right.flag != 0 ? right.value : left.value + right.value};
}

/// Planted: the carry of the earlier tiles combined on the right of a tile's own prefix.
std::vector<Item> carry_on_the_right(const std::vector<Item>& items, std::size_t tile) {
  const FlaggedPlus<std::uint32_t> plus;
  std::vector<Item> out(items.size());
  Item carry = FlaggedPlus<std::uint32_t>::identity();
  for (std::size_t first = 0; first < items.size(); first += tile) {
    Item running = FlaggedPlus<std::uint32_t>::identity();
    for (std::size_t i = first; i < std::min(items.size(), first + tile); ++i) {
      running = plus(running, items[i]);
      out[i] = plus(running, carry);
    }
    carry = plus(carry, running);
  }
  return out;
}

}  // namespace

TEST_CASE("exercise 10-2: your operator is FlaggedPlus on every pair of the table") {
  Differences differences;
  grade_combine(differences, exercises::predicted_combine);
  differences.check();
}

TEST_CASE("exercise 10-2: your operator is associative and not commutative") {
  const Item a{1u, 5u};
  const Item b{0u, 3u};
  const Item c{1u, 7u};
  const Item d{0u, 2u};
  using exercises::predicted_combine;
  const Item left_first = predicted_combine(predicted_combine(predicted_combine(a, b), c), d);
  const Item tree = predicted_combine(predicted_combine(a, b), predicted_combine(c, d));
  CHECK_MESSAGE(left_first.flag == tree.flag, "((a.b).c).d and (a.b).(c.d) differ in their flag");
  CHECK_MESSAGE(left_first.value == tree.value, "((a.b).c).d and (a.b).(c.d) differ in their value");
  CHECK_MESSAGE(predicted_combine(a, b).value != predicted_combine(b, a).value, "(1, 5).(0, 3) = (0, 3).(1, 5)");
}

TEST_CASE("exercise 10-2: your tiled scan is the segmented scan at every tile") {
  Differences differences;
  grade_scan(differences, exercises::predicted_tiled_scan);
  differences.check();
}

TEST_CASE("exercise 10-2: the grader fails planted wrong answers (the right flag only; the carry on the right)") {
  Differences flag;
  grade_combine(flag, right_flag_only);
  CHECK(flag.count() > 0);
  Differences carry;
  grade_scan(carry, carry_on_the_right);
  CHECK(carry.count() > 0);
  Differences model;
  grade_combine(model, FlaggedPlus<std::uint32_t>{});
  CHECK(model.count() == 0);
}
