/// @file sort.hpp
/// Chapter 11's sort problem: n uint32 keys spread over G GPUs, sorted so that the concatenation
/// of the GPUs' outputs in GPU order is the sorted input. The sample sort (stages/sort/) against
/// cub::DeviceRadixSort of all n keys on GPU 0.
#pragma once

#include <cuda_runtime.h>
#include <nccl.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "host/device_buffer.hpp"
#include "host/multi_device.hpp"
#include "host/stage.hpp"
#include "sort_plan.hpp"

namespace stepwise::multigpu {

/// A phase a sort row times with events on every GPU, and whether it moves data between GPUs.
struct SortPhaseInfo {
  const char* name;
  bool communicates;
};

/// The most phases a sort row times.
inline constexpr int kMaxSortPhases = 6;

/// The device memory of GPU g for the sorts of n keys: its part sorted, the sample slots and
/// count matrix the AllGathers fill, a receive buffer and a merge buffer of n keys each (one GPU
/// may receive every key: a receive buffer of n is the only size that never overflows), the
/// partition-first sort's buckets (G regions of the largest part's size), its local samples and
/// splitters, and CUB's temporary storage: one for the main stream, one for the second stream
/// on which the partition-first sort sorts its own bucket during the exchange.
struct SortGpuMemory {
  DeviceBuffer<std::uint32_t> sorted;          ///< the part, sorted (stage 2: the own bucket, sorted)
  DeviceBuffer<std::uint64_t> samples;         ///< G x s sample slots
  DeviceBuffer<std::uint64_t> counts;          ///< the G x G count matrix, row g = what GPU g sends
  DeviceBuffer<std::uint32_t> received;        ///< the runs received, in sender order
  DeviceBuffer<std::uint32_t> merged;          ///< the merge tree's other buffer
  DeviceBuffer<std::uint32_t> buckets;         ///< stage 2: the part split into G buckets
  DeviceBuffer<std::uint64_t> local_samples;   ///< stage 2: samples of the unsorted part
  DeviceBuffer<std::uint64_t> sorted_samples;  ///< stage 2: the same, sorted
  DeviceBuffer<std::uint64_t> splitters;       ///< stage 2: the G - 1 splitters
  DeviceBuffer<unsigned char> temp;            ///< CUB's temporary storage
  DeviceBuffer<unsigned char> side_temp;       ///< CUB's temporary storage on the second stream
};

/// The device bytes GPU @p g needs for the sample sort of @p n keys over @p gpus GPUs with
/// @p samples samples each, CUB's temporary storage (@p temp_bytes) included: refused up front
/// when above a GPU's memory.
std::size_t sample_sort_device_bytes(std::size_t n, int gpus, int samples, int g, std::size_t temp_bytes);

/// Everything the sample sort keeps between runs: each GPU's memory, the pinned host copy of the
/// count matrix, and one event per phase boundary on every GPU.
class SortWorkspace {
 public:
  /// Allocates on each GPU of a team of @p gpus for @p n keys and @p samples samples per GPU;
  /// GPU 0's temporary storage also fits cub::DeviceRadixSort of all n keys (the library row).
  SortWorkspace(std::size_t n, int gpus, int samples);
  ~SortWorkspace();
  SortWorkspace(const SortWorkspace&) = delete;
  SortWorkspace& operator=(const SortWorkspace&) = delete;

  /// The keys in all.
  std::size_t n() const { return n_; }
  /// The GPUs it was allocated on.
  int gpus() const { return gpus_; }
  /// The samples per GPU.
  int samples() const { return samples_; }
  /// GPU @p g's memory.
  SortGpuMemory& memory(int g) { return memory_[static_cast<std::size_t>(g)]; }
  /// The G x G count matrix as GPU @p g copied it back (pinned).
  std::uint64_t* host_counts(int g) { return host_counts_ + static_cast<std::size_t>(g * gpus_ * gpus_); }
  /// The event at the start of phase @p phase on GPU @p g (the phase after a row's last: its end).
  cudaEvent_t event(int g, int phase) { return events_[static_cast<std::size_t>(g * (kMaxSortPhases + 1) + phase)]; }
  /// GPU @p g's second stream (the partition-first sort sorts its own bucket there).
  cudaStream_t side_stream(int g) { return side_streams_[static_cast<std::size_t>(g)]; }
  /// GPU @p g's event that joins the second stream back to the first.
  cudaEvent_t side_done(int g) { return side_done_[static_cast<std::size_t>(g)]; }
  /// The last run's time of each of its first @p phases phases: the slowest GPU's, in ms (synchronizes).
  std::vector<double> phase_ms(int phases);

 private:
  std::size_t n_;
  int gpus_;
  int samples_;
  std::vector<SortGpuMemory> memory_;
  std::uint64_t* host_counts_ = nullptr;
  std::vector<cudaEvent_t> events_;
  std::vector<cudaStream_t> side_streams_;
  std::vector<cudaEvent_t> side_done_;
};

/// Where the sample sort left each GPU's share of the output.
struct SortOutcome {
  ExchangePlan plan;
  /// outputs[g]: GPU g's sorted share, plan.recv_totals[g] keys.
  std::vector<const std::uint32_t*> outputs;
};

/// What every sort row works on: @p parts[g] is GPU g's part of the n keys (part_size(n, G, g),
/// left unchanged); the one-GPU row sorts @p whole_in into @p whole_out, all n keys on GPU 0.
/// A row says where its output lies in @p outcome.
struct SortOperands {
  const DeviceTeam* team = nullptr;         ///< the GPUs and their streams
  std::vector<ncclComm_t> comms;            ///< one per GPU, rank g on GPU g
  std::size_t n = 0;                        ///< keys in all
  std::vector<const std::uint32_t*> parts;  ///< GPU g's keys, on GPU g
  const std::uint32_t* whole_in = nullptr;  ///< all n keys on GPU 0 (the one-GPU row)
  std::uint32_t* whole_out = nullptr;       ///< their sorted copy on GPU 0 (the one-GPU row)
  SortWorkspace* workspace = nullptr;       ///< every GPU's memory and phase events
  SortOutcome* outcome = nullptr;           ///< where the row left the output
};

/// What every sort row is called with.
using SortLaunch = void (*)(const SortOperands& ops, const LaunchShape& shape);

/// What the problem reads about a sort row.
struct SortTraits {
  /// The row runs on GPU 0 alone, on the whole array.
  bool one_gpu = false;
  /// The phases it times, in order (at most kMaxSortPhases; none for the one-GPU row).
  std::vector<SortPhaseInfo> phases;
  /// Its CPU replay, the same arithmetic (the GPU tests compare the count matrices); none for the one-GPU row.
  SortReplay (*replay)(const std::vector<std::uint32_t>& keys, int gpus, int samples) = nullptr;
};

/// A row of the sort table.
using SortStage = Stage<SortLaunch, SortTraits>;

/// The sort table: the sample sort, the partition-first sample sort, then cub::DeviceRadixSort
/// of all n keys on GPU 0.
const std::vector<SortStage>& sort_stages();

/// Stage 1, stages/sort/01_sample_sort.cu: local sort, regular samples and splitters, bucket
/// counts, their AllGather, the grouped send/receive of the buckets, a merge tree of each GPU's
/// received runs. The host waits once, for the count matrix: NCCL's send and receive counts are
/// host values.
SortStage sample_sort();
/// Stage 2, stages/sort/02_partition_first.cu: splitters from samples of the unsorted parts, each
/// part split into its G buckets in one pass, the exchange overlapped with the sort of the bucket
/// a GPU keeps, then the sort of the received keys and one merge.
SortStage partition_first_sort();
/// The library row, stages/sort/lib_cub_radix_sort.cu.
SortStage cub_radix_sort_one_gpu();

/// Stage 2's partition pass alone (stages/sort/02_partition_first.cu), enqueued on @p stream of
/// the current device: splits @p part[0, count) (global position of its first key
/// @p global_first) into the @p buckets buckets (1 to kMaxGpus) that the buckets - 1 packed
/// @p splitters (device memory) define, bucket d at @p out + d * @p capacity; @p fill[d], zeroed
/// by the caller, ends as bucket d's size. The stage runs it with one bucket per GPU; the GPU tests
/// run it for every bucket count on one GPU.
/// @throws std::invalid_argument if @p buckets is not in [1, kMaxGpus].
void partition_into_buckets_on(int buckets, const std::uint32_t* part, std::size_t count, std::size_t global_first,
                               const std::uint64_t* splitters, std::uint32_t* out, std::size_t capacity,
                               unsigned long long* fill, cudaStream_t stream);

/// The temporary storage cub::DeviceRadixSort needs for @p n keys on the current device.
std::size_t cub_radix_sort_temp_bytes(std::size_t n);

/// The temporary storage of CUB's radix sort of @p part keys and merge of up to @p n keys, on
/// the current device (the sample sort's).
std::size_t sample_sort_temp_bytes(std::size_t part, std::size_t n);

/// The temporary storage of the partition-first sort on the current device's main stream, for a
/// part of @p part keys and @p n keys in all: CUB's radix sorts of the local samples and of up to
/// n received keys, and its merge.
std::size_t partition_sort_temp_bytes(std::size_t part, std::size_t n);
/// The temporary storage of the partition-first sort's second stream: CUB's radix sort of up to
/// @p part keys (the bucket the GPU keeps).
std::size_t partition_sort_side_temp_bytes(std::size_t part);

}  // namespace stepwise::multigpu
