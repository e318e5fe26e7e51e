// The tables of chapter 03, one per problem: the order of the stages is the order of the lessons.
#include "merge.hpp"

namespace stepwise::merge {

template <class K>
const std::vector<MergeStage<K>>& merge_stages() {
  static const std::vector<MergeStage<K>> table = numbered<MergeStage<K>>({
      merge_naive<K>(),            // stages/merge/01_naive.cu
      merge_path_per_thread<K>(),  // stages/merge/02_path_per_thread.cu
      merge_two_level<K>(),        // stages/merge/03_two_level.cu
      merge_tuned<K>(),            // stages/merge/04_tuned.cu
      merge_library_cub<K>(),      // stages/merge/lib_cub_merge.cu
      merge_library_thrust<K>(),   // stages/merge/lib_thrust_merge.cu
  });
  return table;
}

template <class K>
const std::vector<SearchStage<K>>& search_stages() {
  static const std::vector<SearchStage<K>> table = numbered<SearchStage<K>>({
      search_binary<K>(),          // stages/search/01_binary_search.cu
      search_merge_path<K>(),      // stages/search/02_merge_path.cu
      search_library_thrust<K>(),  // stages/search/lib_thrust_bound.cu
  });
  return table;
}

const std::vector<LbsStage>& lbs_stages() {
  static const std::vector<LbsStage> table = numbered<LbsStage>({
      lbs_binary(),          // stages/lbs/01_binary_search.cu
      lbs_merge_path(),      // stages/lbs/02_merge_path.cu
      lbs_library_thrust(),  // stages/lbs/lib_thrust_lbs.cu
  });
  return table;
}

template const std::vector<MergeStage<std::int32_t>>& merge_stages<std::int32_t>();
template const std::vector<MergeStage<std::int64_t>>& merge_stages<std::int64_t>();
template const std::vector<SearchStage<std::int32_t>>& search_stages<std::int32_t>();
template const std::vector<SearchStage<std::int64_t>>& search_stages<std::int64_t>();

}  // namespace stepwise::merge
