// Exercise 05-3, solved: the distinct keys of each tile of 32, counted with a sorted copy; then,
// per warp of 32 x kKeysPerThread keys, each full thread's inner run ends and its last key, a
// short thread's run ends plus its last run (the keys past n close it), and the distinct last keys.
#include "03_thread_runs.hpp"

#include <algorithm>
#include <cstddef>

namespace stepwise::atomics::exercises {
namespace {

/// The distinct values of @p values.
std::uint64_t distinct(std::vector<Key> values) {
  std::sort(values.begin(), values.end());
  return static_cast<std::uint64_t>(std::unique(values.begin(), values.end()) - values.begin());
}

}  // namespace

KeyAtomics key_atomics(const std::vector<Key>& keys) {
  KeyAtomics atomics;
  const std::size_t n = keys.size();
  for (std::size_t first = 0; first < n; first += 32)
    atomics.per_group +=
        distinct(std::vector<Key>(keys.begin() + static_cast<std::ptrdiff_t>(first),
                                  keys.begin() + static_cast<std::ptrdiff_t>(std::min(first + 32, n))));
  const std::size_t per_thread = kKeysPerThread;
  for (std::size_t warp = 0; warp < n; warp += 32 * per_thread) {
    std::vector<Key> last_runs;
    for (std::size_t first = warp; first < std::min(warp + 32 * per_thread, n); first += per_thread) {
      const std::size_t end = std::min(first + per_thread, n);
      for (std::size_t i = first + 1; i < end; ++i)
        if (keys[i] != keys[i - 1]) ++atomics.thread_runs;
      if (end - first < per_thread)
        ++atomics.thread_runs;
      else
        last_runs.push_back(keys[end - 1]);
    }
    atomics.thread_runs += distinct(last_runs);
  }
  return atomics;
}

}  // namespace stepwise::atomics::exercises
