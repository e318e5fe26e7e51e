/// @file segscan.hpp
/// Segmented scan (--problem segscan): out[i] = the sum of the items of i's segment up to and
/// including i (an inclusive scan restarted at every segment). Its stages go from a thread per
/// segment to a single-pass scan of (flag, value) pairs with decoupled look-back (chapter 02's,
/// from common/device/lookback.cuh, with flagged.hpp's operator), against
/// cub::DeviceScan::InclusiveScanByKey.
///
/// Every row runs for any n and any segment count with 64-bit offsets; int32 sums wrap mod 2^32;
/// a launcher only enqueues work and takes its scratch from the workspace.
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
#include "reference.hpp"
#include "segments.hpp"
#include "segreduce.hpp"
#include "work.hpp"

namespace stepwise::segmented {

/// The device operands of one segmented scan.
template <class T>
struct SegScanArgs {
  const T* values = nullptr;                   ///< n items
  const std::uint64_t* offsets = nullptr;      ///< segments + 1 offsets
  const std::uint32_t* segment_ids = nullptr;  ///< n keys: the segment of each item (its head flags: a change)
  T* out = nullptr;                            ///< n scanned items
  std::uint64_t n = 0;
  std::uint64_t segments = 0;
};

template <class T>
using SegScanLaunch = void (*)(const SegScanArgs<T>& args, Workspace& workspace, const LaunchShape& shape,
                               cudaStream_t stream);

/// The facts of one row, set in its own file.
struct SegScanTraits {
  /// The work plan of the row at @p shape (--analyze); null for the library rows.
  WorkPlan (*plan)(const SegmentStats& stats, const LaunchShape& shape) = nullptr;
};

template <class T>
using SegScanStage = Stage<SegScanLaunch<T>, SegScanTraits>;

/// Instantiates `SegScanStage<T> factory<T>()` for each value type: the last line of a stage file.
#define SEGSCAN_STAGE_ROWS(factory) SEGMENTED_FOR_EACH_TYPE(STEPWISE_STAGE_ROW, SegScanStage, factory)

/// The table: stages in teaching order, then the library row.
template <class T>
const std::vector<SegScanStage<T>>& segscan_stages();

template <class T>
SegScanStage<T> segscan_thread();  ///< stage 1, stages/segscan/01_thread_per_segment.cu
template <class T>
SegScanStage<T> segscan_single_pass();  ///< stage 2, stages/segscan/02_single_pass.cu
template <class T>
SegScanStage<T> library_cub_scan_by_key();  ///< stages/segscan/lib_cub_scan_by_key.cu

/// The workspace bytes of the single-pass rows (ticket and tile statuses for the smallest tile they
/// compile) and of CUB's InclusiveScanByKey over @p n items (asks CUB).
template <class T>
std::size_t single_pass_scan_bytes(std::uint64_t n);
template <class T>
std::size_t cub_scan_by_key_temp_bytes(std::uint64_t n);

/// One segmented scan input with its reference and the buffers every row writes.
template <class T>
class SegScanProblem final : public Problem {
 public:
  /// n values and offsets drawn as @p plan says from @p seed.
  SegScanProblem(std::uint64_t n, const Plan& plan, std::uint64_t seed);
  /// Given values and offsets.
  SegScanProblem(std::vector<T> values, std::vector<std::uint64_t> offsets);

  std::string element_type() const override;
  /// Read the values and the segment ids once, write n items.
  double bytes_moved() const override;
  void poison_output() override { poison(out_); }
  Check check_output() override { return check_against(out_.download(), reference_); }
  void run_cpu_reference() override { scratch_ = segscan_reference(values_, offsets_); }

  /// Runs @p stage on this problem's buffers.
  void launch(const SegScanStage<T>& stage, const LaunchShape& shape, cudaStream_t stream);

  const SegmentStats& stats() const { return stats_; }

 private:
  std::vector<T> values_;
  std::vector<std::uint64_t> offsets_;
  SegmentStats stats_;
  Expected<T> reference_, scratch_;
  DeviceBuffer<T> values_in_;
  DeviceBuffer<std::uint64_t> offsets_in_;
  DeviceBuffer<std::uint32_t> ids_in_;
  DeviceBuffer<T> out_;
  Workspace workspace_;
};

}  // namespace stepwise::segmented
