/// @file scan.hpp
/// Chapter 11's scan problem: the inclusive sum of n int32 (wrapping) or float32 values spread
/// over G GPUs in contiguous parts (sample_sort.hpp's part_begin and part_size), each GPU ending
/// with its slice of the global scan. Two distributed stages (stages/scan/) against
/// cub::DeviceScan of all n values on GPU 0.
#pragma once

#include <nccl.h>

#include <cstddef>
#include <vector>

#include "host/device_buffer.hpp"
#include "host/multi_device.hpp"
#include "host/stage.hpp"
#include "scan_ops.hpp"

namespace stepwise::multigpu {

/// The single-pass tile: chapter 02's default on an H100 (128 threads x 28 values).
inline constexpr int kScanThreads = 128;
inline constexpr int kScanValues = 28;
inline constexpr int kScanTileItems = kScanThreads * kScanValues;

/// The device memory of one GPU for the distributed scan of its part: the G gathered totals,
/// the look-back's ticket and tile statuses, and CUB's temporary storage (the reduce of stage 2;
/// the whole scan of the library row, on GPU 0).
struct ScanGpuMemory {
  DeviceBuffer<unsigned char> totals;    ///< G values: every GPU's part total after the AllGather
  DeviceBuffer<unsigned char> lookback;  ///< the single-pass scan's ticket and tile statuses
  DeviceBuffer<unsigned char> temp;      ///< CUB's temporary storage
};

/// Every GPU's scan memory for @p n values of @p Op::value_type over @p gpus GPUs; GPU 0's
/// temporary storage also fits cub::DeviceScan of all n values (the library row).
template <class Op>
std::vector<ScanGpuMemory> make_scan_memory(std::size_t n, int gpus);

/// What every scan row works on: @p in[g] and @p out[g] are GPU g's part of the n values
/// (part_size(n, G, g)); the one-GPU row reads @p whole_in and writes @p whole_out, all n values
/// on GPU 0. Rows enqueue on the team's streams; none waits for the host.
template <class Op>
struct ScanOperands {
  using T = typename Op::value_type;
  const DeviceTeam* team = nullptr;              ///< the GPUs and their streams
  std::vector<ncclComm_t> comms;                 ///< one per GPU, rank g on GPU g
  std::size_t n = 0;                             ///< values in all
  std::vector<const T*> in;                      ///< GPU g's part of the input, on GPU g
  std::vector<T*> out;                           ///< GPU g's part of the output, on GPU g
  const T* whole_in = nullptr;                   ///< all n inputs on GPU 0 (the one-GPU row)
  T* whole_out = nullptr;                        ///< all n outputs on GPU 0 (the one-GPU row)
  std::vector<ScanGpuMemory>* memory = nullptr;  ///< every GPU's scratch
};

/// What every scan row is called with.
template <class Op>
using ScanLaunch = void (*)(const ScanOperands<Op>& ops, const LaunchShape& shape);

/// What the problem and --analyze read about a scan row.
struct ScanTraits {
  /// Device memory accesses per value (reads and writes): 4 for scan then add, 3 for reduce then
  /// scan, 2 for one GPU's single pass.
  int accesses = 2;
  /// The row runs on GPU 0 alone, on the whole array.
  bool one_gpu = false;
};

/// A row of the scan table.
template <class Op>
using ScanStage = Stage<ScanLaunch<Op>, ScanTraits>;

/// The scan table: stage 1 (scan then add), stage 2 (reduce then scan), then cub::DeviceScan on GPU 0.
template <class Op>
const std::vector<ScanStage<Op>>& scan_stages();

/// Stage 1, stages/scan/01_scan_then_add.cu.
template <class Op>
ScanStage<Op> scan_then_add();
/// Stage 2, stages/scan/02_reduce_then_scan.cu.
template <class Op>
ScanStage<Op> reduce_then_scan();
/// The library row, stages/scan/lib_cub_scan.cu.
template <class Op>
ScanStage<Op> cub_scan_one_gpu();

/// The temporary storage cub::DeviceScan needs for @p n values on the current device.
template <class Op>
std::size_t cub_scan_temp_bytes(std::size_t n);
/// The temporary storage cub::DeviceReduce needs for @p n values on the current device.
template <class Op>
std::size_t cub_reduce_temp_bytes(std::size_t n);

}  // namespace stepwise::multigpu
