// The chapter's tables: add a stage by adding its file under stages/ and its row here.
#include <algorithm>

#include "algorithm/lookback.hpp"
#include "compaction.hpp"

namespace stepwise::compaction {
namespace {

/// A row that does not keep the input order does less than DeviceSelect: the size sweep leaves it
/// out of the comparison with the library.
template <class K>
void mark_library_matches(SelectStage<K>& stage) {
  stage.matches_library = stage.traits.keeps_input_order;
  for (SelectStage<K>& variant : stage.variants) variant.matches_library = variant.traits.keeps_input_order;
}

template <class K>
std::vector<SelectStage<K>> table(Form form) {
  std::vector<SelectStage<K>> stages = numbered<SelectStage<K>>({
      atomic_per_element<K>(),                                               // stages/01_atomic.cu
      warp_aggregated<K>(),                                                  // stages/02_warp_aggregated.cu
      block_aggregated<K>(),                                                 // stages/03_block_aggregated.cu
      count_scan_scatter<K>(),                                               // stages/04_count_scan_scatter.cu
      two_kernels<K>(),                                                      // stages/05_two_kernels.cu
      single_pass<K>(),                                                      // stages/06_single_pass.cu
      tuned<K>(),                                                            // stages/07_tuned.cu
      tuned_unordered<K>(),                                                  // stages/08_tuned_unordered.cu
      form == Form::flags ? library_cub_flagged<K>() : library_cub_if<K>(),  // stages/lib_cub_select.cu
  });
  for (SelectStage<K>& stage : stages) mark_library_matches(stage);
  return stages;
}

}  // namespace

template <class K>
const std::vector<SelectStage<K>>& select_stages(Form form) {
  static const std::vector<SelectStage<K>> predicate = table<K>(Form::predicate);
  static const std::vector<SelectStage<K>> flags = table<K>(Form::flags);
  return form == Form::flags ? flags : predicate;
}

template <class K>
std::size_t workspace_bytes(std::size_t n, bool payload) {
  const std::size_t counts = kMaxCountBlocks * sizeof(unsigned long long);
  const std::size_t statuses = packed_lookback_layout((n + kMinLookbackTile - 1) / kMinLookbackTile).total_bytes;
  const std::size_t cub =
      std::max(cub_temp_bytes<K>(n, Form::predicate, payload), cub_temp_bytes<K>(n, Form::flags, payload));
  return std::max({counts, statuses, cub});
}

template const std::vector<SelectStage<std::int32_t>>& select_stages<std::int32_t>(Form);
template const std::vector<SelectStage<float>>& select_stages<float>(Form);
template std::size_t workspace_bytes<std::int32_t>(std::size_t, bool);
template std::size_t workspace_bytes<float>(std::size_t, bool);

}  // namespace stepwise::compaction
