/// @file parallel_sort.hpp
/// A sort on every host core, for the CPU references of the sorting chapters at 2^30 keys and
/// more: chunks sorted on their own, then merged pairwise, level by level, every level cut into
/// pieces of kHostChunk outputs by Merge Path (chapter 03's search), so that the last levels,
/// with one or two pairs left, keep every core busy too. Host code only.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "algorithm/merge_path.hpp"
#include "host/parallel.hpp"

namespace stepwise {

/// Sorts @p items by operator< on every host core; equal items keep no particular order (make
/// them distinct, as with an input position, where the order of equal keys matters).
template <class T>
void parallel_sort(std::vector<T>& items) {
  const std::size_t n = items.size();
  for_each_range(n, kHostChunk, [&](std::size_t first, std::size_t last) {
    std::sort(items.begin() + static_cast<std::ptrdiff_t>(first), items.begin() + static_cast<std::ptrdiff_t>(last));
  });
  if (n <= kHostChunk) return;
  std::vector<T> merged(n);
  for (std::size_t width = kHostChunk; width < n; width *= 2) {
    // The piece [out_first, out_last) of the level lies in one pair of sorted runs of width items.
    for_each_range(n, kHostChunk, [&](std::size_t out_first, std::size_t out_last) {
      const std::size_t pair_first = out_first / (2 * width) * (2 * width);
      const std::size_t middle = std::min(n, pair_first + width);
      const std::size_t pair_last = std::min(n, pair_first + 2 * width);
      const T* a = items.data() + pair_first;
      const T* b = items.data() + middle;
      const std::size_t a_count = middle - pair_first, b_count = pair_last - middle;
      const std::size_t diagonal = out_first - pair_first;
      const std::size_t diagonal_end = out_last - pair_first;
      const auto less = [](const T& x, const T& y) { return x < y; };
      const std::size_t a_begin = merge_path(a, a_count, b, b_count, diagonal, less);
      const std::size_t a_end = merge_path(a, a_count, b, b_count, diagonal_end, less);
      std::merge(a + a_begin, a + a_end, b + (diagonal - a_begin), b + (diagonal_end - a_end),
                 merged.begin() + static_cast<std::ptrdiff_t>(out_first));
    });
    items.swap(merged);
  }
}

}  // namespace stepwise
