// The chapter's tables: add a stage by adding its file under stages/radix or stages/merge and its
// row here.
#include "sort.hpp"

#include <algorithm>

namespace stepwise::sort {

template <class K>
const std::vector<SortStage<K>>& radix_stages() {
  static const std::vector<SortStage<K>> table = numbered<SortStage<K>>({
      radix_one_bit<K>(),         // stages/radix/01_one_bit.cu
      radix_digits<K>(),          // stages/radix/02_digits.cu
      radix_block_ranked<K>(),    // stages/radix/03_block_ranked.cu
      radix_onesweep<K>(),        // stages/radix/04_onesweep.cu
      radix_tuned<K>(),           // stages/radix/05_tuned.cu
      library_cub_radix<K>(),     // stages/radix/lib_cub_radix.cu
      library_thrust_radix<K>(),  // stages/radix/lib_thrust_sort.cu
  });
  return table;
}

template <class K>
const std::vector<SortStage<K>>& merge_stages() {
  static const std::vector<SortStage<K>> table = numbered<SortStage<K>>({
      merge_pairwise<K>(),               // stages/merge/01_pairwise.cu
      merge_block_sort_merge_path<K>(),  // stages/merge/02_block_sort_merge_path.cu
      merge_tuned<K>(),                  // stages/merge/03_tuned.cu
      library_cub_merge<K>(),            // stages/merge/lib_cub_merge.cu
      library_thrust_merge<K>(),         // stages/merge/lib_thrust_sort.cu
  });
  return table;
}

template <class K>
std::size_t workspace_bytes(std::size_t n, bool pairs) {
  const std::size_t buffers = aligned_bytes(n * sizeof(K)) + (pairs ? aligned_bytes(n * sizeof(Value)) : 0);
  const std::size_t kernels = buffers + kernel_scratch_bytes(n);
  const std::size_t cub = std::max(cub_radix_temp_bytes<K>(n, pairs), cub_merge_temp_bytes<K>(n, pairs));
  // thrust takes a second key and value buffer and CUB's storage from the workspace's allocator
  // (stages/*/lib_thrust_sort.cu), each piece aligned.
  const std::size_t thrust = buffers + aligned_bytes(cub) + (std::size_t{1} << 20);
  return std::max({kernels, aligned_bytes(cub), thrust});
}

#define SORT_TABLES(K, unused)                                 \
  template const std::vector<SortStage<K>>& radix_stages<K>(); \
  template const std::vector<SortStage<K>>& merge_stages<K>(); \
  template std::size_t workspace_bytes<K>(std::size_t, bool)
SORT_FOR_EACH_KEY(SORT_TABLES, 0);
#undef SORT_TABLES

}  // namespace stepwise::sort
