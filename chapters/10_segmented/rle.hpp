/// @file rle.hpp
/// Run-length encoding (--problem rle): the runs of equal consecutive keys of an array, each as
/// its key and its length, in order, and the number of runs. The keys are drawn from --segments:
/// every segment is one run of one key (an empty segment is no run), so the distributions of
/// segment lengths are the distributions of run lengths. Its stage is chapter 06's single-pass
/// compaction with the flags "this key differs from the one before", each run's length written by
/// the next run's head, against cub::DeviceRunLengthEncode::Encode and cub::DeviceSelect::Unique.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "host/device_buffer.hpp"
#include "host/harness.hpp"
#include "host/stage.hpp"
#include "host/workspace.hpp"
#include "plan.hpp"
#include "segments.hpp"
#include "segreduce.hpp"
#include "work.hpp"

namespace stepwise::segmented {

/// The device operands of one run-length encoding.
template <class T>
struct RleArgs {
  const T* keys = nullptr;          ///< n keys
  T* unique = nullptr;              ///< room for n keys: the key of each run
  std::uint32_t* counts = nullptr;  ///< room for n lengths: the length of each run (null: a row that writes none)
  std::int64_t* runs = nullptr;     ///< one value: the number of runs
  std::uint64_t n = 0;
};

template <class T>
using RleLaunch = void (*)(const RleArgs<T>& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream);

/// The facts of one row, set in its own file.
struct RleTraits {
  /// The work plan of the row at @p shape (--analyze); null for the library rows.
  WorkPlan (*plan)(const SegmentStats& stats, const LaunchShape& shape) = nullptr;
  /// Whether the row writes the run lengths (cub::DeviceSelect::Unique writes the keys only).
  bool writes_counts = true;
  /// The most keys the row takes (0: any n): a library's count type can hold fewer than --n allows.
  std::uint64_t max_items = 0;
};

template <class T>
using RleStage = Stage<RleLaunch<T>, RleTraits>;

/// Instantiates `RleStage<T> factory<T>()` for each value type: the last line of a stage file.
#define RLE_STAGE_ROWS(factory) SEGMENTED_FOR_EACH_TYPE(STEPWISE_STAGE_ROW, RleStage, factory)

/// The table: stages in teaching order, then the library rows.
template <class T>
const std::vector<RleStage<T>>& rle_stages();

template <class T>
RleStage<T> rle_single_pass();  ///< stage 1, stages/rle/01_single_pass.cu
template <class T>
RleStage<T> library_cub_encode();  ///< stages/rle/lib_cub_encode.cu
template <class T>
RleStage<T> library_cub_unique();  ///< stages/rle/lib_cub_unique.cu

/// The workspace of the single-pass row (the ticket, the statuses of its two look-backs and, for its
/// variant row without direct lengths, the run starts) and of CUB's Encode and Unique over @p n keys
/// (asks CUB).
template <class T>
std::size_t rle_single_pass_bytes(std::uint64_t n);
template <class T>
std::size_t cub_encode_temp_bytes(std::uint64_t n);
template <class T>
std::size_t cub_unique_temp_bytes(std::uint64_t n);

/// The keys of runs cut by @p offsets: segment s repeats key s of @p keys (a non-empty segment's key
/// differs from the previous non-empty one's: it is moved by 1 where the draw repeats it).
template <class T>
std::vector<T> run_keys(const std::vector<T>& keys, const std::vector<std::uint64_t>& offsets);

/// The CPU reference: the key and the length of each run of equal consecutive keys of @p keys.
template <class T>
void rle_reference(const std::vector<T>& keys, std::vector<T>& unique, std::vector<std::uint32_t>& counts);

/// One run-length encoding input with its reference and the buffers every row writes.
template <class T>
class RleProblem final : public Problem {
 public:
  /// Keys drawn as @p plan's segments say from @p seed.
  RleProblem(std::uint64_t n, const Plan& plan, std::uint64_t seed);
  /// Given keys.
  explicit RleProblem(std::vector<T> keys);

  std::string element_type() const override;
  /// Read the keys once, write a key and a length per run.
  double bytes_moved() const override;
  void poison_output() override;
  /// The run count, then the keys and (for a row that writes them) the lengths of every run, exactly.
  Check check_output() override;
  void run_cpu_reference() override { rle_reference(keys_, scratch_unique_, scratch_counts_); }

  /// Runs @p stage on this problem's buffers.
  void launch(const RleStage<T>& stage, const LaunchShape& shape, cudaStream_t stream);

  const std::vector<T>& keys() const { return keys_; }
  std::uint64_t runs() const { return unique_.size(); }

 private:
  std::vector<T> keys_;
  std::vector<T> unique_, scratch_unique_;
  std::vector<std::uint32_t> counts_, scratch_counts_;
  DeviceBuffer<T> keys_in_;
  DeviceBuffer<T> unique_out_;
  DeviceBuffer<std::uint32_t> counts_out_;
  DeviceBuffer<std::int64_t> runs_out_;
  Workspace workspace_;
  bool check_counts_ = true;
};

}  // namespace stepwise::segmented
