/// @file sort.hpp
/// Chapter 09: sorting. Two tables, picked by --problem: radix sorts (one bit per pass, then
/// digits, block-local ranking, Onesweep) against cub::DeviceRadixSort, and merge sorts against
/// cub::DeviceMergeSort, with thrust's sort beside each.
///
/// Every row computes the same thing: the keys of the input (and, with pairs, their int32
/// values) stably sorted by ordered_bits() (keys.hpp), written to keys_out (values_out); the
/// input is never modified. Every row runs for any n with 64-bit indexing; a launcher only
/// enqueues work on its stream and takes its scratch from the workspace.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "host/check.hpp"
#include "host/stage.hpp"
#include "host/workspace.hpp"
#include "inputs.hpp"
#include "keys.hpp"
#include "traits.hpp"

namespace stepwise::sort {

/// The device operands of one sort.
template <class K>
struct SortArgs {
  const K* keys_in = nullptr;        ///< n keys, never modified
  K* keys_out = nullptr;             ///< n keys of room: the sorted keys
  const Value* values_in = nullptr;  ///< n values, or null for keys only
  Value* values_out = nullptr;       ///< n values of room with pairs, else null
  std::size_t n = 0;
  /// The radix rows that read --digit-bits (StageInfo::options): the bits of a digit; 0: the
  /// stage's own.
  int digit_bits = 0;
};

/// What every row is called with: the operands, the scratch every row of a table shares (a
/// second key and value buffer for the passes to ping-pong, counts, statuses, a library's
/// temporary storage; allocated before timing), the shape and the stream.
template <class K>
using SortLaunch = void (*)(const SortArgs<K>& args, Workspace& workspace, const LaunchShape& shape,
                            cudaStream_t stream);
/// A row of a table, with its traits set in its own file.
template <class K>
using SortStage = Stage<SortLaunch<K>, SortTraits>;

/// The key types the chapter sorts, named once for every stage file: applies `X(K, ...)` to each
/// (stage.hpp's STEPWISE_STAGE_ROW, STEPWISE_KEYED_FUNCTION), joined by `;`.
#define SORT_FOR_EACH_KEY(X, ...) \
  X(std::uint32_t, __VA_ARGS__);  \
  X(std::int32_t, __VA_ARGS__);   \
  X(float, __VA_ARGS__);          \
  X(std::uint64_t, __VA_ARGS__)
/// Instantiates the stage factory `SortStage<K> factory<K>()` for each key type: the last line of
/// every stage file.
#define SORT_STAGE_ROWS(factory) SORT_FOR_EACH_KEY(STEPWISE_STAGE_ROW, SortStage, factory)

/// The radix table: stages in teaching order, then cub::DeviceRadixSort and thrust::stable_sort.
template <class K>
const std::vector<SortStage<K>>& radix_stages();
/// The merge table: stages in teaching order, then cub::DeviceMergeSort and thrust::stable_sort
/// with a comparator.
template <class K>
const std::vector<SortStage<K>>& merge_stages();
/// The table of @p algorithm.
template <class K>
const std::vector<SortStage<K>>& sort_stages(Algorithm algorithm) {
  return algorithm == Algorithm::merge ? merge_stages<K>() : radix_stages<K>();
}

template <class K>
SortStage<K> radix_one_bit();  ///< radix stage 1, stages/radix/01_one_bit.cu
template <class K>
SortStage<K> radix_digits();  ///< radix stage 2, stages/radix/02_digits.cu
template <class K>
SortStage<K> radix_block_ranked();  ///< radix stage 3, stages/radix/03_block_ranked.cu
template <class K>
SortStage<K> radix_onesweep();  ///< radix stage 4, stages/radix/04_onesweep.cu
template <class K>
SortStage<K> radix_tuned();  ///< radix stage 5, stages/radix/05_tuned.cu
template <class K>
SortStage<K> library_cub_radix();  ///< stages/radix/lib_cub_radix.cu
template <class K>
SortStage<K> library_thrust_radix();  ///< stages/radix/lib_thrust_sort.cu
template <class K>
SortStage<K> merge_pairwise();  ///< merge stage 1, stages/merge/01_pairwise.cu
template <class K>
SortStage<K> merge_block_sort_merge_path();  ///< merge stage 2, stages/merge/02_block_sort_merge_path.cu
template <class K>
SortStage<K> merge_tuned();  ///< merge stage 3, stages/merge/03_tuned.cu
template <class K>
SortStage<K> library_cub_merge();  ///< stages/merge/lib_cub_merge.cu
template <class K>
SortStage<K> library_thrust_merge();  ///< stages/merge/lib_thrust_sort.cu

/// CUB's temporary storage for sorting @p n keys (with @p pairs, their values) by
/// cub::DeviceRadixSort, and by cub::DeviceMergeSort (asks CUB: needs the CUDA runtime).
template <class K>
std::size_t cub_radix_temp_bytes(std::size_t n, bool pairs);
template <class K>
std::size_t cub_merge_temp_bytes(std::size_t n, bool pairs);

/// The bytes the kernel rows may use past the second key and value buffer (counts and digit
/// histograms per tile and their scan, look-back statuses): 4 bytes per key and 1 MiB.
inline std::size_t kernel_scratch_bytes(std::size_t n) { return 4 * n + (std::size_t{1} << 20); }

/// The workspace bytes every row of both tables needs for @p n keys (asks CUB: needs the CUDA
/// runtime): the largest of the kernel rows' (a second key and value buffer and
/// kernel_scratch_bytes), CUB's temporary storage, and thrust's (a second buffer and CUB's).
template <class K>
std::size_t workspace_bytes(std::size_t n, bool pairs);

/// The kernel rows' pieces of the workspace: a second buffer of n keys (and n values with
/// pairs) for the passes to ping-pong with the output, and the scratch after them.
template <class K>
struct SortScratch {
  K* keys = nullptr;
  Value* values = nullptr;        ///< null for keys only
  unsigned char* rest = nullptr;  ///< kernel_scratch_bytes(n) bytes
  std::size_t rest_bytes = 0;
};

/// Carves SortScratch out of @p workspace for @p args.
/// @throws std::invalid_argument when the workspace is too small.
template <class K>
SortScratch<K> carve_scratch(Workspace& workspace, const SortArgs<K>& args) {
  SortScratch<K> scratch;
  const std::size_t key_bytes = aligned_bytes(args.n * sizeof(K));
  const std::size_t value_bytes = args.values_in != nullptr ? aligned_bytes(args.n * sizeof(Value)) : 0;
  scratch.keys = workspace.carve<K>(0, args.n);
  if (args.values_in != nullptr) scratch.values = workspace.carve<Value>(key_bytes, args.n);
  scratch.rest_bytes = kernel_scratch_bytes(args.n);
  scratch.rest = workspace.carve<unsigned char>(key_bytes + value_bytes, scratch.rest_bytes);
  return scratch;
}

/// Runs @p passes passes of a multi-pass sort, ping-ponging between the output and @p scratch's
/// second buffer so that the last pass writes the output and the input is only read:
/// `body(keys_in, values_in, keys_out, values_out, pass)` enqueues pass `pass` (0, 1, ...). With
/// no pass (one key), the input is copied to the output.
template <class K, class Body>
void for_each_pass(const SortArgs<K>& args, const SortScratch<K>& scratch, int passes, cudaStream_t stream,
                   Body&& body) {
  const bool pairs = args.values_in != nullptr;
  if (passes == 0) {
    STEPWISE_CUDA_CHECK(
        cudaMemcpyAsync(args.keys_out, args.keys_in, args.n * sizeof(K), cudaMemcpyDeviceToDevice, stream));
    if (pairs)
      STEPWISE_CUDA_CHECK(
          cudaMemcpyAsync(args.values_out, args.values_in, args.n * sizeof(Value), cudaMemcpyDeviceToDevice, stream));
    return;
  }
  const K* keys_in = args.keys_in;
  const Value* values_in = args.values_in;
  for (int pass = 0; pass < passes; ++pass) {
    const bool to_output = (passes - 1 - pass) % 2 == 0;
    K* keys_out = to_output ? args.keys_out : scratch.keys;
    Value* values_out = pairs ? (to_output ? args.values_out : scratch.values) : nullptr;
    body(keys_in, values_in, keys_out, static_cast<Value*>(values_out), pass);
    keys_in = keys_out;
    values_in = values_out;
  }
}

}  // namespace stepwise::sort
