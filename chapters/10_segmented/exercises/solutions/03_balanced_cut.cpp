// Exercise 10-3, solved: Merge Path's cut by counting (ties to A), then the copies of b[j] before
// it redealt in the balanced order; the output count adds, key by key, the copies each operation
// keeps of cA and cB.
#include "03_balanced_cut.hpp"

#include <algorithm>

namespace stepwise::segmented::exercises {

namespace {

std::int64_t count_below(const std::vector<std::int32_t>& v, std::int64_t end, std::int32_t key, bool or_equal) {
  const auto last = v.begin() + end;
  return (or_equal ? std::upper_bound(v.begin(), last, key) : std::lower_bound(v.begin(), last, key)) - v.begin();
}

}  // namespace

Cut<std::int64_t> predicted_cut(const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b,
                                std::int64_t diagonal) {
  const auto a_count = static_cast<std::int64_t>(a.size());
  const auto b_count = static_cast<std::int64_t>(b.size());
  // Merge Path: the most A elements i such that a[i - 1] <= b[diagonal - i] (A first on ties).
  std::int64_t low = std::max<std::int64_t>(0, diagonal - b_count);
  std::int64_t high = std::min(diagonal, a_count);
  while (low < high) {
    const std::int64_t i = (low + high) / 2;
    if (a[i] <= b[diagonal - i - 1])
      low = i + 1;
    else
      high = i;
  }
  const std::int64_t i = low;
  const std::int64_t j = diagonal - i;
  if (j >= b_count) return {i, j};
  const std::int32_t x = b[j];
  const std::int64_t a_start = count_below(a, i, x, false);
  const std::int64_t b_start = count_below(b, j, x, false);
  const std::int64_t before = (i - a_start) + (j - b_start);
  if (before == 0) return {i, j};
  const std::int64_t a_copies = count_below(a, a_count, x, true) - a_start;
  const std::int64_t b_copies = count_below(b, b_count, x, true) - b_start;
  std::int64_t a_take = 0;
  std::int64_t b_take = 0;
  if (before <= 2 * std::min(a_copies, b_copies)) {
    b_take = before / 2;
    a_take = before - b_take;
    if (a_take > b_take) ++b_take;
  } else if (a_copies > b_copies) {
    b_take = b_copies;
    a_take = before - b_copies;
  } else {
    a_take = a_copies;
    b_take = before - a_copies;
  }
  return {a_start + a_take, b_start + b_take};
}

std::int64_t predicted_output_count(SetOp op, const std::vector<std::int32_t>& a, const std::vector<std::int32_t>& b) {
  std::int64_t total = 0;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() || j < b.size()) {
    const std::int32_t key = i == a.size() ? b[j] : j == b.size() ? a[i] : std::min(a[i], b[j]);
    std::int64_t ca = 0;
    std::int64_t cb = 0;
    for (; i < a.size() && a[i] == key; ++i) ++ca;
    for (; j < b.size() && b[j] == key; ++j) ++cb;
    switch (op) {
      case SetOp::intersection:
        total += std::min(ca, cb);
        break;
      case SetOp::union_:
        total += std::max(ca, cb);
        break;
      case SetOp::difference:
        total += std::max<std::int64_t>(ca - cb, 0);
        break;
      case SetOp::symmetric_difference:
        total += ca > cb ? ca - cb : cb - ca;
        break;
    }
  }
  return total;
}

}  // namespace stepwise::segmented::exercises
