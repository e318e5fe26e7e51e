#include "spmv.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace stepwise::spmv {

SpmvScratch::SpmvScratch(std::size_t merge_items, std::size_t value_bytes, std::shared_ptr<CusparseState> cusparse)
    : partitions_(merge_items / kMinTileItems + 2),
      kept_partitions_(merge_items / kMinTileItems + 2),
      carries_((merge_items / kMinTileItems + 1) * 2 * std::max<std::size_t>(value_bytes, 8)),
      cusparse_(std::move(cusparse)) {}

std::int64_t* SpmvScratch::partitions(std::size_t count) {
  if (count > partitions_.size())
    throw std::invalid_argument("the workspace holds " + std::to_string(partitions_.size()) + " tile boundaries, not " +
                                std::to_string(count));
  return partitions_.data();
}

void* SpmvScratch::carries(std::size_t count, std::size_t bytes) {
  if (count * bytes > carries_.size())
    throw std::invalid_argument("the workspace holds " + std::to_string(carries_.size()) + " bytes of carries, not " +
                                std::to_string(count * bytes));
  return carries_.data();
}

SpmvScratch::KeptPartitions SpmvScratch::kept_partitions(std::size_t tile_items, std::size_t count) {
  if (count > kept_partitions_.size())
    throw std::invalid_argument("the workspace keeps " + std::to_string(kept_partitions_.size()) +
                                " tile boundaries, not " + std::to_string(count));
  const bool searched = tile_items == kept_tile_items_;
  kept_tile_items_ = tile_items;
  return {kept_partitions_.data(), searched};
}

CusparseState& SpmvScratch::cusparse() {
  if (!cusparse_) throw std::invalid_argument("this workspace has no cuSPARSE state");
  return *cusparse_;
}

template <class T>
const std::vector<SpmvStage<T>>& spmv_stages() {
  static const std::vector<SpmvStage<T>> table = numbered<SpmvStage<T>>({
      spmv_scalar<T>(),                 // stages/01_scalar.cu
      spmv_shared_cache<T>(),           // stages/02_shared_cache.cu
      spmv_vector<T>(),                 // stages/03_vector.cu
      spmv_merge_based<T>(),            // stages/04_merge_based.cu
      spmv_tuned<T>(),                  // stages/05_tuned.cu
      spmv_library_cusparse_alg1<T>(),  // stages/lib_cusparse.cu
      spmv_library_cusparse_alg2<T>(),  // stages/lib_cusparse.cu
  });
  return table;
}

template <class T>
AnalyzedStages analyzed_stages(const std::vector<SpmvStage<T>>& table) {
  AnalyzedStages stages;
  for (const SpmvStage<T>& stage : table) {
    const StageLabel label{stage.number, stage.name};
    switch (stage.traits.model) {
      case StageModel::scalar:
        stages.scalar = label;
        break;
      case StageModel::shared_cache:
        stages.shared_cache = label;
        break;
      case StageModel::vector:
        stages.vector = label;
        break;
      case StageModel::merge:
        stages.merge = label;
        break;
      case StageModel::tuned:
        stages.tuned = label;
        break;
      case StageModel::none:
        break;
    }
  }
  return stages;
}

template const std::vector<SpmvStage<float>>& spmv_stages<float>();
template const std::vector<SpmvStage<double>>& spmv_stages<double>();
template AnalyzedStages analyzed_stages<float>(const std::vector<SpmvStage<float>>&);
template AnalyzedStages analyzed_stages<double>(const std::vector<SpmvStage<double>>&);

}  // namespace stepwise::spmv
