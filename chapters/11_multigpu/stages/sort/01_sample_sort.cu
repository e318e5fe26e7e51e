// Sort stage 1, sample sort over G GPUs (Leischner, Osipov & Sanders, "GPU sample sort", 2010,
// with one bucket per GPU and regular sampling).
//
// A radix sort cannot be split over GPUs pass by pass: every pass scatters every key anywhere,
// so each of its passes would cross the links. A sample sort moves each key across them once.
// Each GPU sorts its own part (cub::DeviceRadixSort: the local sort is chapter 09's subject, and
// here it only has to be fast; chapter 09's stages are rows of that chapter's table, bound to its
// problem and workspace), draws s regular samples from it, and the G * s samples travel by
// ncclAllGather, so that every GPU sorts the same samples and picks the same G - 1 splitters
// without a host round trip. A binary search of each splitter in the sorted part gives its G
// bucket boundaries, so the histogram costs 2 (G - 1) searches, not a pass over the keys. The
// G x G count matrix travels by a second AllGather and comes back to the host, because NCCL's
// send and receive counts are host values: this is the one point where the host waits. The
// buckets then cross in one group of ncclSend/ncclRecv pairs (a GPU's own bucket is a device
// copy), arriving in sender order, and each GPU merges its G sorted runs with a merge tree of
// cub::DeviceMerge (ceil(log2 G) passes over its share, one pass on 2 GPUs), instead of a second
// radix sort of the share (several passes over it). Samples are (key, global position) pairs,
// so equal keys are split between GPUs like distinct ones: a few distinct keys, or one repeated
// key, stay balanced. The phases are timed with events on every GPU; the README gives the
// exchange's share and the buckets' balance (max/mean) next to cub::DeviceRadixSort on one GPU.
#include <cub/device/device_merge.cuh>
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

#include "host/check.hpp"
#include "nccl_check.hpp"
#include "sample_sort.hpp"
#include "sort.cuh"
#include "sort.hpp"

namespace stepwise::multigpu {
namespace {

/// The phases this row times, in order (events at each start and after the last).
enum Phase { kLocalSort, kSamples, kCounts, kExchange, kMerge, kPhases };

/// A sorted run of keys in a buffer of GPU d.
struct Run {
  std::size_t offset = 0;
  std::size_t count = 0;
};

/// Merges the sorted @p runs (contiguous, in order) of @p from into one run: pairs of runs merge
/// into @p to at the first one's offset, an odd last run is copied, and the buffers swap, until
/// one run is left. Returns the buffer that holds it.
std::uint32_t* merge_tree(std::vector<Run> runs, std::uint32_t* from, std::uint32_t* to, unsigned char* temp,
                          std::size_t temp_bytes, cudaStream_t stream) {
  runs.erase(std::remove_if(runs.begin(), runs.end(), [](const Run& run) { return run.count == 0; }), runs.end());
  while (runs.size() > 1) {
    std::vector<Run> next;
    for (std::size_t i = 0; i < runs.size(); i += 2) {
      const Run& first = runs[i];
      if (i + 1 == runs.size()) {
        STEPWISE_CUDA_CHECK(cudaMemcpyAsync(to + first.offset, from + first.offset, first.count * sizeof(std::uint32_t),
                                            cudaMemcpyDeviceToDevice, stream));
        next.push_back(first);
        continue;
      }
      const Run& second = runs[i + 1];
      std::size_t bytes = temp_bytes;
      STEPWISE_CUDA_CHECK(
          cub::DeviceMerge::MergeKeys(temp, bytes, from + first.offset, static_cast<::cuda::std::int64_t>(first.count),
                                      from + second.offset, static_cast<::cuda::std::int64_t>(second.count),
                                      to + first.offset, ::cuda::std::less<std::uint32_t>{}, stream));
      next.push_back({first.offset, first.count + second.count});
    }
    runs = std::move(next);
    std::swap(from, to);
  }
  return from;
}

}  // namespace

std::size_t sample_sort_temp_bytes(std::size_t part, std::size_t n) {
  std::size_t sort_bytes = 0;
  std::size_t merge_bytes = 0;
  if (part > 0)
    STEPWISE_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, sort_bytes, static_cast<const std::uint32_t*>(nullptr),
                                                       static_cast<std::uint32_t*>(nullptr), part));
  if (n > 0)
    STEPWISE_CUDA_CHECK(cub::DeviceMerge::MergeKeys(
        nullptr, merge_bytes, static_cast<const std::uint32_t*>(nullptr), static_cast<::cuda::std::int64_t>(n - n / 2),
        static_cast<const std::uint32_t*>(nullptr), static_cast<::cuda::std::int64_t>(n / 2),
        static_cast<std::uint32_t*>(nullptr), ::cuda::std::less<std::uint32_t>{}));
  return std::max<std::size_t>({sort_bytes, merge_bytes, 1});
}

namespace {

void launch(const SortOperands& ops, const LaunchShape&) {
  const DeviceTeam& team = *ops.team;
  SortWorkspace& workspace = *ops.workspace;
  const std::vector<const std::uint32_t*>& parts = ops.parts;
  const int gpus = team.size();
  const std::size_t n = workspace.n();
  const int samples = workspace.samples();
  require_consistent(ops);
  const std::size_t g_count = static_cast<std::size_t>(gpus);

  // 1. Local sort of each part; 2. its samples.
  for (int g = 0; g < gpus; ++g) {
    const ScopedDevice device(g);
    SortGpuMemory& memory = workspace.memory(g);
    const cudaStream_t stream = team.stream(g);
    const std::size_t count = part_size(n, gpus, g);
    STEPWISE_CUDA_CHECK(cudaEventRecord(workspace.event(g, kLocalSort), stream));
    if (count > 0) {
      std::size_t bytes = memory.temp.size();
      STEPWISE_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(memory.temp.data(), bytes, parts[static_cast<std::size_t>(g)],
                                                         memory.sorted.data(), count, 0, 32, stream));
    }
    STEPWISE_CUDA_CHECK(cudaEventRecord(workspace.event(g, kSamples), stream));
    launch_draw_samples(memory.sorted.data(), count, samples, part_begin(n, gpus, g),
                        memory.samples.data() + static_cast<std::size_t>(g * samples), stream);
  }
  // Every GPU receives every GPU's samples.
  all_gather_samples(ops);
  // 3. Splitters and bucket counts on every GPU, the count matrix gathered and copied back.
  for (int g = 0; g < gpus; ++g) {
    const ScopedDevice device(g);
    SortGpuMemory& memory = workspace.memory(g);
    const cudaStream_t stream = team.stream(g);
    STEPWISE_CUDA_CHECK(cudaEventRecord(workspace.event(g, kCounts), stream));
    launch_bucket_counts(memory.samples.data(), gpus * samples, gpus, memory.sorted.data(), part_size(n, gpus, g),
                         part_begin(n, gpus, g), memory.counts.data() + g * g_count, stream);
  }
  const std::vector<std::uint64_t> counts = gather_count_matrix(ops);
  SortOutcome& outcome = *ops.outcome;
  outcome.plan = make_exchange_plan(counts, gpus);
  const ExchangePlan& plan = outcome.plan;

  // 4. The exchange: a GPU's own bucket is a device copy, the others one group of sends and receives.
  for (int g = 0; g < gpus; ++g) {
    const ScopedDevice device(g);
    SortGpuMemory& memory = workspace.memory(g);
    const cudaStream_t stream = team.stream(g);
    STEPWISE_CUDA_CHECK(cudaEventRecord(workspace.event(g, kExchange), stream));
    const std::size_t own = g * g_count + g;
    if (plan.counts[own] > 0)
      STEPWISE_CUDA_CHECK(cudaMemcpyAsync(memory.received.data() + plan.recv_offsets[own],
                                          memory.sorted.data() + plan.send_offsets[own],
                                          plan.counts[own] * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice, stream));
  }
  STEPWISE_NCCL_CHECK(ncclGroupStart());
  for (std::size_t g = 0; g < g_count; ++g)
    for (std::size_t d = 0; d < g_count; ++d) {
      if (d == g) continue;
      SortGpuMemory& memory = workspace.memory(static_cast<int>(g));
      if (plan.counts[g * g_count + d] > 0)
        STEPWISE_NCCL_CHECK(ncclSend(memory.sorted.data() + plan.send_offsets[g * g_count + d],
                                     plan.counts[g * g_count + d], ncclUint32, static_cast<int>(d), ops.comms[g],
                                     team.stream(static_cast<int>(g))));
      if (plan.counts[d * g_count + g] > 0)
        STEPWISE_NCCL_CHECK(ncclRecv(memory.received.data() + plan.recv_offsets[g * g_count + d],
                                     plan.counts[d * g_count + g], ncclUint32, static_cast<int>(d), ops.comms[g],
                                     team.stream(static_cast<int>(g))));
    }
  STEPWISE_NCCL_CHECK(ncclGroupEnd());

  // 5. Each GPU merges the runs it received, in sender order.
  outcome.outputs.resize(g_count);
  for (std::size_t d = 0; d < g_count; ++d) {
    const ScopedDevice device(static_cast<int>(d));
    SortGpuMemory& memory = workspace.memory(static_cast<int>(d));
    const cudaStream_t stream = team.stream(static_cast<int>(d));
    STEPWISE_CUDA_CHECK(cudaEventRecord(workspace.event(static_cast<int>(d), kMerge), stream));
    std::vector<Run> runs;
    for (std::size_t g = 0; g < g_count; ++g)
      runs.push_back({plan.recv_offsets[d * g_count + g], plan.counts[g * g_count + d]});
    outcome.outputs[d] = merge_tree(std::move(runs), memory.received.data(), memory.merged.data(), memory.temp.data(),
                                    memory.temp.size(), stream);
    STEPWISE_CUDA_CHECK(cudaEventRecord(workspace.event(static_cast<int>(d), kPhases), stream));
  }
}

}  // namespace

SortStage sample_sort() {
  SortStage stage;
  stage.name = "sample-sort";
  stage.lesson = "local radix sorts, splitters from all-gathered samples, one send/recv exchange, a merge tree";
  stage.launch = launch;
  stage.synchronizes = true;  // the count matrix comes back to the host for NCCL's send/recv counts
  stage.options = {"--samples"};
  stage.traits.phases = {{"local sort", false},
                         {"samples", true},
                         {"splitters and counts", true},
                         {"bucket exchange", true},
                         {"merge", false}};
  stage.traits.replay = replay_sample_sort;
  return stage;
}

}  // namespace stepwise::multigpu
