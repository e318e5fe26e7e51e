// Exercise 08-1, solved: the bounds by binary search (the kernels merge instead: the same answer,
// each key read once), A's counts from them, B's from whether its key is in A, then the scan.
#include <algorithm>

#include "01_columns.hpp"

namespace stepwise::join::exercises {

InputColumns predicted_columns(const JoinInput& input, JoinKind kind) {
  InputColumns columns;
  for (std::int32_t key : input.a) {
    const auto lower = std::lower_bound(input.b.begin(), input.b.end(), key) - input.b.begin();
    const auto upper = std::upper_bound(input.b.begin(), input.b.end(), key) - input.b.begin();
    columns.lower.push_back(static_cast<std::int32_t>(lower));
    columns.upper.push_back(static_cast<std::int32_t>(upper));
    const bool matched = upper > lower;
    columns.counts.push_back(matched ? static_cast<std::int32_t>(upper - lower) : (keeps_unmatched_a(kind) ? 1 : 0));
  }
  for (std::int32_t key : input.b) {
    const bool matched = std::binary_search(input.a.begin(), input.a.end(), key);
    columns.counts.push_back(!matched && keeps_unmatched_b(kind) ? 1 : 0);
  }
  std::int32_t total = 0;
  for (std::int32_t count : columns.counts) {
    columns.offsets.push_back(total);
    total += count;
  }
  columns.offsets.push_back(total);
  return columns;
}

}  // namespace stepwise::join::exercises
