/// @file merge.cuh
/// Launcher helpers the stages of chapter 03 share. The algorithmic pieces themselves are in
/// common/: merge_path.hpp, sorted_search.hpp, load_balance.hpp (host and device) and
/// merge_tile.cuh (the tile loads and stores), kernels/merge_path_partitions.cuh (the partition kernel).
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "host/check.hpp"
#include "host/launch.hpp"
#include "merge.hpp"

namespace stepwise::merge {

/// Whether a merge row merges key-value pairs: when any values pointer is set. Then every
/// non-empty array needs its values (an empty one may have none: an empty DeviceBuffer's data()
/// is null).
/// @throws std::invalid_argument for values missing beside non-empty keys.
inline bool merges_pairs(const void* a_values, const void* b_values, const void* out_values, std::size_t a_count,
                         std::size_t b_count) {
  const bool pairs = a_values != nullptr || b_values != nullptr || out_values != nullptr;
  if (pairs && ((a_count > 0 && a_values == nullptr) || (b_count > 0 && b_values == nullptr) ||
                (a_count + b_count > 0 && out_values == nullptr)))
    throw std::invalid_argument("a merge of pairs needs the values of every non-empty array");
  return pairs;
}

/// @throws std::invalid_argument when @p count is above kMaxIndexed (an int32 index of @p what).
inline void require_indexed(std::size_t count, const char* what) {
  if (count > kMaxIndexed)
    throw std::invalid_argument(std::string(what) + " " + std::to_string(count) + " is above 2^31 - 1 (int32 indices)");
}

/// Allows @p kKernel up to @p bytes of dynamic shared memory (above the default 48 KiB); once
/// per kernel, so that timed runs make no attribute calls.
template <auto kKernel>
void allow_dynamic_shared(std::size_t bytes) {
  static std::size_t allowed = 0;
  if (bytes <= allowed) return;
  STEPWISE_CUDA_CHECK(
      cudaFuncSetAttribute(kKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  allowed = bytes;
}

}  // namespace stepwise::merge
