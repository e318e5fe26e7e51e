// Sort stage 2, partition first: the exchange runs while each GPU sorts the keys it keeps.
//
// Changed from stage 1: the order of the work. Stage 1 sorts all of a part before it knows where
// any key goes, so the links idle through the local sort and the SMs idle through the exchange:
// its time is sort + exchange + merge. Here the splitters come first, from samples of the
// unsorted parts: each GPU draws kLocalSamples (key, position) samples, one at a hashed position
// in each of as many equal slices of its part (stratified, so no period of the input lines up with
// them), sorts them with CUB and keeps s regular ones of the sorted samples; the G * s travel by
// ncclAllGather and one block picks the G - 1 splitters, as in stage 1. One pass then splits the
// part into its G buckets (each key's bucket is the number of splitters not above it; warp ballots
// rank the keys of a bucket within a warp, one atomic per block and bucket claims their place), and
// the count matrix goes to the host, which NCCL's send counts need. Then the exchange and the sort
// of the bucket the GPU keeps run at once, on two streams: the links carry (G - 1)/G of the part
// while the SMs sort the other 1/G. After both, each GPU sorts the keys it received and merges them
// with its own sorted bucket. Its time is partition + max(exchange, sort of 1/G) + sort of the
// received keys + merge: the partition pass (one read, one write) buys the overlap of the exchange
// with a sort. The partition stages its tile in shared memory by bucket, so that each bucket's run
// leaves with consecutive threads on consecutive places, and takes G as a template argument: with
// G read at run time the kernel held 58 registers a thread and took 2.81 ms for 2^29 keys on an
// H100, with G = 2 compiled in 32 registers and 1.68 ms (a copy of as many bytes: 1.43 ms). On two H200s at 2^30 keys
// the stage then took 14.94 ms against stage 1's 15.80 (the partition phase 1.66 ms; 2.79 ms before). Tried and
// removed, on H100s where the earlier kernel took 3.10 ms: a claim per warp instead of per block (5.90 ms: eight times
// the atomics on one line) and a resident grid that loops over tiles (3.51 ms); on two H200s, a claim per 16,384 keys
// with a second sweep (3.41 ms against 2.95). The buckets of stage 1 are cut at regular samples
// of sorted parts; here at regular samples of 2^16 sorted samples a GPU: as even on the inputs measured
// (max/mean 1.011-1.013 on two GPUs, stage 1's 1.015-1.016).
#include <cub/device/device_merge.cuh>
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "host/check.hpp"
#include "nccl_check.hpp"
#include "sample_sort.hpp"
#include "sort.cuh"
#include "sort.hpp"

namespace stepwise::multigpu {
namespace {

/// The phases this row times, in order (events at each start and after the last).
enum Phase { kSamples, kPartition, kCountMatrix, kExchange, kReceivedSort, kMerge, kPhases };

/// The partition's tile: NT threads, VT keys each.
constexpr int kPartitionThreads = 256;
constexpr int kPartitionItems = 8;
/// A key's slot in partition_into_buckets when it lies past the end of the part.
constexpr unsigned kNoSlot = ~0u;
/// Threads of the small sample kernels.
constexpr int kSampleThreads = 256;

/// Thread i writes the (key, global position) of sample i of @p samples of the unsorted part
/// @p part[0, count) (first global position @p global_first) to @p out[i]: stratified_position.
__global__ void draw_stratified_samples(const std::uint32_t* part, std::size_t count, std::size_t samples,
                                        std::size_t global_first, std::uint64_t* out) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= samples) return;
  const std::size_t position = stratified_position(count, samples, i);
  out[i] = pack_sample(part[position], global_first + position);
}

/// Thread i writes regular sample i of @p samples of the @p count sorted samples @p sorted to
/// @p out[i], or kNoSample when there are none (an empty part).
__global__ void pick_regular_samples(const std::uint64_t* sorted, std::size_t count, int samples, std::uint64_t* out) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= samples) return;
  out[i] = count == 0 ? kNoSample : sorted[sample_position(count, samples, i)];
}

/// One block: rank-sorts the @p slots gathered samples and writes the @p gpus - 1 splitters to
/// @p splitters (kNoSample when no slot holds a sample: every key then falls in bucket 0).
__global__ void __launch_bounds__(kMaxSampleSlots)
    pick_splitters(const std::uint64_t* samples, int slots, int gpus, std::uint64_t* splitters) {
  __shared__ std::uint64_t gathered[kMaxSampleSlots];
  __shared__ std::uint64_t ordered[kMaxSampleSlots];
  __shared__ int valid;
  order_gathered_samples(samples, slots, gathered, ordered, &valid);
  const int j = static_cast<int>(threadIdx.x);
  if (j + 1 < gpus)
    splitters[j] = valid > 0 ? ordered[splitter_rank(j + 1, static_cast<std::size_t>(valid), gpus)] : kNoSample;
}

/// Splits @p part[0, count) (first global position @p global_first) into the G buckets the
/// G - 1 @p splitters define: bucket d goes to @p buckets + d * @p capacity, at the place
/// @p fill[d] hands out (fill[d] ends as bucket d's size). Each warp takes 32 x VT consecutive
/// keys, 32 at a time; per bucket one ballot gives each key its rank among the warp's keys of
/// that bucket. The warps' counts give each warp its place in the tile, ordered by bucket, and one
/// atomic per block and bucket claims the tile's place in the bucket. The keys are staged in
/// shared memory in that order, then written out with consecutive threads on consecutive places of
/// a bucket's run. The order within a bucket is the order in which blocks claim, which the sort
/// that follows makes irrelevant. G is a template argument so that the per-bucket counters and
/// loops are registers and unrolled code: with G read at run time (up to G) the kernel took
/// 58 registers and 2.81 ms for 2^29 keys on an H100, with G = 2 compiled in 32 registers and 1.68.
template <int NT, int VT, int G>
__global__ void __launch_bounds__(NT)
    partition_into_buckets(const std::uint32_t* __restrict__ part, std::size_t count, std::size_t global_first,
                           const std::uint64_t* __restrict__ splitters, std::uint32_t* __restrict__ buckets,
                           std::size_t capacity, unsigned long long* fill) {
  constexpr int kWarps = NT / 32;
  __shared__ std::uint64_t cuts[G];
  __shared__ unsigned warp_counts[kWarps][G];
  __shared__ unsigned warp_offsets[kWarps][G];
  __shared__ unsigned tile_starts[G + 1];
  __shared__ unsigned long long claimed[G];
  __shared__ std::uint32_t staged[NT * VT];
  if (static_cast<int>(threadIdx.x) + 1 < G) cuts[threadIdx.x] = splitters[threadIdx.x];
  __syncthreads();
  const int warp = static_cast<int>(threadIdx.x) / 32;
  const unsigned lane = threadIdx.x % 32;
  const unsigned lanes_below = (1u << lane) - 1u;
  const std::size_t first = (static_cast<std::size_t>(blockIdx.x) * kWarps + warp) * (32 * VT) + lane;
  std::uint32_t key[VT];
  unsigned slot[VT];  // kNoSlot past the end, else the key's bucket << 16 | its rank among the warp's keys of it
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    const std::size_t index = first + static_cast<std::size_t>(i) * 32;
    key[i] = index < count ? part[index] : 0u;
  }
  unsigned running[G] = {};
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    const std::size_t index = first + static_cast<std::size_t>(i) * 32;
    const int bucket = index < count ? bucket_of(key[i], global_first + index, cuts, G - 1) : -1;
    slot[i] = kNoSlot;
#pragma unroll
    for (int d = 0; d < G; ++d) {
      const unsigned mates = __ballot_sync(0xffffffffu, bucket == d);
      if (bucket == d) slot[i] = static_cast<unsigned>(d) << 16 | (running[d] + __popc(mates & lanes_below));
      running[d] += __popc(mates);
    }
  }
  if (lane == 0)
#pragma unroll
    for (int d = 0; d < G; ++d) warp_counts[warp][d] = running[d];
  __syncthreads();
  const int d = static_cast<int>(threadIdx.x);
  if (d < G) {
    unsigned before = 0;
    for (int lower = 0; lower < d; ++lower)
      for (int w = 0; w < kWarps; ++w) before += warp_counts[w][lower];
    unsigned total = 0;
    for (int w = 0; w < kWarps; ++w) {
      warp_offsets[w][d] = before + total;
      total += warp_counts[w][d];
    }
    tile_starts[d] = before;
    if (d + 1 == G) tile_starts[G] = before + total;
    claimed[d] = total > 0 ? atomicAdd(fill + d, static_cast<unsigned long long>(total)) : 0ull;
  }
  __syncthreads();
#pragma unroll
  for (int i = 0; i < VT; ++i)
    if (slot[i] != kNoSlot) staged[warp_offsets[warp][slot[i] >> 16] + (slot[i] & 0xffffu)] = key[i];
  __syncthreads();
  const unsigned tile_count = tile_starts[G];
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    const unsigned j = static_cast<unsigned>(i * NT) + threadIdx.x;
    if (j < tile_count) {
      int b = 0;
      for (int c = 1; c < G; ++c)
        if (j >= tile_starts[c]) b = c;
      const std::size_t place = claimed[b];
      const unsigned start = tile_starts[b];
      buckets[static_cast<std::size_t>(b) * capacity + place + (j - start)] = staged[j];
    }
  }
}

/// Launches partition_into_buckets for @p gpus buckets (1 to kMaxGpus), G compiled in.
template <int G = 1>
void launch_partition(int gpus, unsigned tiles, cudaStream_t stream, const std::uint32_t* part, std::size_t count,
                      std::size_t global_first, const std::uint64_t* splitters, std::uint32_t* buckets,
                      std::size_t capacity, unsigned long long* fill) {
  if constexpr (G <= kMaxGpus) {
    if (gpus != G)
      return launch_partition<G + 1>(gpus, tiles, stream, part, count, global_first, splitters, buckets, capacity,
                                     fill);
    partition_into_buckets<kPartitionThreads, kPartitionItems, G>
        <<<tiles, kPartitionThreads, 0, stream>>>(part, count, global_first, splitters, buckets, capacity, fill);
    STEPWISE_CHECK_LAUNCH();
  } else {
    throw std::invalid_argument("partition_into_buckets: more GPUs than kMaxGpus");
  }
}

/// The samples a GPU draws from a part of @p count keys.
std::size_t local_samples(std::size_t count) { return std::min(count, kLocalSamples); }

void launch(const SortOperands& ops, const LaunchShape&) {
  const DeviceTeam& team = *ops.team;
  SortWorkspace& workspace = *ops.workspace;
  const int gpus = team.size();
  const std::size_t n = workspace.n();
  const int samples = workspace.samples();
  require_consistent(ops);
  const std::size_t g_count = static_cast<std::size_t>(gpus);
  const std::size_t capacity = part_size(n, gpus, 0);

  // 1. Samples of each unsorted part, sorted; s regular ones of them all-gathered.
  for (int g = 0; g < gpus; ++g) {
    const ScopedDevice device(g);
    SortGpuMemory& memory = workspace.memory(g);
    const cudaStream_t stream = team.stream(g);
    const std::size_t count = part_size(n, gpus, g);
    const std::size_t drawn = local_samples(count);
    STEPWISE_CUDA_CHECK(cudaEventRecord(workspace.event(g, kSamples), stream));
    if (drawn > 0) {
      draw_stratified_samples<<<static_cast<unsigned>((drawn + kSampleThreads - 1) / kSampleThreads), kSampleThreads, 0,
                                stream>>>(ops.parts[static_cast<std::size_t>(g)], count, drawn, part_begin(n, gpus, g),
                                          memory.local_samples.data());
      STEPWISE_CHECK_LAUNCH();
      std::size_t bytes = memory.temp.size();
      STEPWISE_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(memory.temp.data(), bytes, memory.local_samples.data(),
                                                         memory.sorted_samples.data(), drawn, 0, 64, stream));
    }
    pick_regular_samples<<<1, (samples + 31) / 32 * 32, 0, stream>>>(
        memory.sorted_samples.data(), drawn, samples, memory.samples.data() + static_cast<std::size_t>(g * samples));
    STEPWISE_CHECK_LAUNCH();
  }
  all_gather_samples(ops);

  // 2. Splitters and the partition into buckets (counted as it goes); 3. the count matrix to the host.
  for (int g = 0; g < gpus; ++g) {
    const ScopedDevice device(g);
    SortGpuMemory& memory = workspace.memory(g);
    const cudaStream_t stream = team.stream(g);
    const std::size_t count = part_size(n, gpus, g);
    STEPWISE_CUDA_CHECK(cudaEventRecord(workspace.event(g, kPartition), stream));
    const int slots = gpus * samples;
    pick_splitters<<<1, (std::max(slots, gpus) + 31) / 32 * 32, 0, stream>>>(memory.samples.data(), slots, gpus,
                                                                             memory.splitters.data());
    STEPWISE_CHECK_LAUNCH();
    std::uint64_t* row = memory.counts.data() + g * g_count;
    STEPWISE_CUDA_CHECK(cudaMemsetAsync(row, 0, g_count * sizeof(std::uint64_t), stream));
    partition_into_buckets_on(gpus, ops.parts[static_cast<std::size_t>(g)], count, part_begin(n, gpus, g),
                              memory.splitters.data(), memory.buckets.data(), capacity,
                              reinterpret_cast<unsigned long long*>(row), stream);
    STEPWISE_CUDA_CHECK(cudaEventRecord(workspace.event(g, kCountMatrix), stream));
  }
  const std::vector<std::uint64_t> counts = gather_count_matrix(ops);
  SortOutcome& outcome = *ops.outcome;
  outcome.plan = make_exchange_plan(counts, gpus);

  // 4. The exchange on the first stream, the sort of the own bucket on the second, at once.
  // others[d]: the keys GPU d receives from the other GPUs, stored in sender order from 0.
  std::vector<std::size_t> others(g_count, 0);
  for (int g = 0; g < gpus; ++g) {
    const ScopedDevice device(g);
    SortGpuMemory& memory = workspace.memory(g);
    const cudaStream_t stream = team.stream(g);
    const cudaStream_t side = workspace.side_stream(g);
    STEPWISE_CUDA_CHECK(cudaEventRecord(workspace.event(g, kExchange), stream));
    STEPWISE_CUDA_CHECK(cudaStreamWaitEvent(side, workspace.event(g, kExchange), 0));
    const std::size_t own = counts[static_cast<std::size_t>(g) * g_count + static_cast<std::size_t>(g)];
    if (own > 0) {
      std::size_t bytes = memory.side_temp.size();
      STEPWISE_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(memory.side_temp.data(), bytes,
                                                         memory.buckets.data() + static_cast<std::size_t>(g) * capacity,
                                                         memory.sorted.data(), own, 0, 32, side));
    }
    STEPWISE_CUDA_CHECK(cudaEventRecord(workspace.side_done(g), side));
  }
  STEPWISE_NCCL_CHECK(ncclGroupStart());
  for (std::size_t g = 0; g < g_count; ++g) {
    SortGpuMemory& memory = workspace.memory(static_cast<int>(g));
    for (std::size_t d = 0; d < g_count; ++d) {
      if (d == g) continue;
      const std::uint64_t sent = counts[g * g_count + d];
      if (sent > 0)
        STEPWISE_NCCL_CHECK(ncclSend(memory.buckets.data() + d * capacity, sent, ncclUint32, static_cast<int>(d),
                                     ops.comms[g], team.stream(static_cast<int>(g))));
      const std::uint64_t received = counts[d * g_count + g];
      if (received > 0)
        STEPWISE_NCCL_CHECK(ncclRecv(memory.received.data() + others[g], received, ncclUint32, static_cast<int>(d),
                                     ops.comms[g], team.stream(static_cast<int>(g))));
      others[g] += received;
    }
  }
  STEPWISE_NCCL_CHECK(ncclGroupEnd());

  // 5. The received keys sorted; 6. merged with the own bucket.
  outcome.outputs.resize(g_count);
  for (std::size_t g = 0; g < g_count; ++g) {
    const ScopedDevice device(static_cast<int>(g));
    SortGpuMemory& memory = workspace.memory(static_cast<int>(g));
    const cudaStream_t stream = team.stream(static_cast<int>(g));
    STEPWISE_CUDA_CHECK(cudaStreamWaitEvent(stream, workspace.side_done(static_cast<int>(g)), 0));
    STEPWISE_CUDA_CHECK(cudaEventRecord(workspace.event(static_cast<int>(g), kReceivedSort), stream));
    if (others[g] > 0) {
      std::size_t bytes = memory.temp.size();
      STEPWISE_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(memory.temp.data(), bytes, memory.received.data(),
                                                         memory.merged.data(), others[g], 0, 32, stream));
    }
    STEPWISE_CUDA_CHECK(cudaEventRecord(workspace.event(static_cast<int>(g), kMerge), stream));
    const std::size_t own = counts[g * g_count + g];
    if (own > 0 && others[g] > 0) {
      std::size_t bytes = memory.temp.size();
      STEPWISE_CUDA_CHECK(cub::DeviceMerge::MergeKeys(
          memory.temp.data(), bytes, memory.sorted.data(), static_cast<::cuda::std::int64_t>(own), memory.merged.data(),
          static_cast<::cuda::std::int64_t>(others[g]), memory.received.data(), ::cuda::std::less<std::uint32_t>{},
          stream));
      outcome.outputs[g] = memory.received.data();
    } else {
      outcome.outputs[g] = own > 0 ? memory.sorted.data() : memory.merged.data();
    }
    STEPWISE_CUDA_CHECK(cudaEventRecord(workspace.event(static_cast<int>(g), kPhases), stream));
  }
}

}  // namespace

void partition_into_buckets_on(int buckets, const std::uint32_t* part, std::size_t count, std::size_t global_first,
                               const std::uint64_t* splitters, std::uint32_t* out, std::size_t capacity,
                               unsigned long long* fill, cudaStream_t stream) {
  if (buckets < 1 || buckets > kMaxGpus)
    throw std::invalid_argument("partition_into_buckets_on: " + std::to_string(buckets) + " buckets, not 1 to " +
                                std::to_string(kMaxGpus));
  if (count == 0) return;
  constexpr std::size_t kTile = std::size_t{kPartitionThreads} * kPartitionItems;
  launch_partition(buckets, static_cast<unsigned>((count + kTile - 1) / kTile), stream, part, count, global_first,
                   splitters, out, capacity, fill);
}

std::size_t partition_sort_temp_bytes(std::size_t part, std::size_t n) {
  std::size_t samples_bytes = 0;
  std::size_t sort_bytes = 0;
  std::size_t merge_bytes = 0;
  if (part > 0)
    STEPWISE_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, samples_bytes,
                                                       static_cast<const std::uint64_t*>(nullptr),
                                                       static_cast<std::uint64_t*>(nullptr), local_samples(part)));
  if (n > 0) {
    STEPWISE_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, sort_bytes, static_cast<const std::uint32_t*>(nullptr),
                                                       static_cast<std::uint32_t*>(nullptr), n));
    STEPWISE_CUDA_CHECK(cub::DeviceMerge::MergeKeys(
        nullptr, merge_bytes, static_cast<const std::uint32_t*>(nullptr), static_cast<::cuda::std::int64_t>(n - n / 2),
        static_cast<const std::uint32_t*>(nullptr), static_cast<::cuda::std::int64_t>(n / 2),
        static_cast<std::uint32_t*>(nullptr), ::cuda::std::less<std::uint32_t>{}));
  }
  return std::max<std::size_t>({samples_bytes, sort_bytes, merge_bytes, 1});
}

std::size_t partition_sort_side_temp_bytes(std::size_t part) {
  std::size_t bytes = 0;
  if (part > 0)
    STEPWISE_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, bytes, static_cast<const std::uint32_t*>(nullptr),
                                                       static_cast<std::uint32_t*>(nullptr), part));
  return std::max<std::size_t>(bytes, 1);
}

SortStage partition_first_sort() {
  SortStage stage;
  stage.name = "partition-first";
  stage.lesson =
      "splitters from samples of the unsorted parts, one partition pass, the exchange overlapped with "
      "the sort of the bucket each GPU keeps";
  stage.launch = launch;
  stage.synchronizes = true;  // the count matrix comes back to the host for NCCL's send/recv counts
  stage.options = {"--samples"};
  stage.traits.phases = {{"samples", true},
                         {"splitters and partition", false},
                         {"count matrix to the host", true},
                         {"exchange while the kept bucket sorts", true},
                         {"sort of the received keys", false},
                         {"merge", false}};
  stage.traits.replay = replay_partition_sort;
  return stage;
}

}  // namespace stepwise::multigpu
