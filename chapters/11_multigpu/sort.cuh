/// @file sort.cuh
/// The device half of the sample sort's small steps: each GPU draws its regular samples from its
/// sorted part, and after the samples' AllGather one block sorts the G * s samples (a rank sort
/// in shared memory: each thread counts the samples before its own), picks the G - 1 splitters
/// and finds its part's G bucket boundaries by binary search. The arithmetic is
/// sample_sort.hpp's, which the CPU tests replay. The kernels are static: one stage file includes this.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "host/check.hpp"
#include "nccl_check.hpp"
#include "sample_sort.hpp"
#include "sort.hpp"

namespace stepwise::multigpu {

/// The most sample slots the splitter block sorts: G * s with G <= 8 and s <= 128.
inline constexpr int kMaxSampleSlots = kMaxGpus * kMaxSamples;

/// Thread i writes sample i of the sorted part @p sorted[0, count) (first global position
/// @p global_first) to @p samples[i], or kNoSample when the part is empty.
static __global__ void draw_samples(const std::uint32_t* sorted, std::size_t count, int samples,
                                    std::size_t global_first, std::uint64_t* out) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= samples) return;
  if (count == 0) {
    out[i] = kNoSample;
    return;
  }
  const std::size_t position = sample_position(count, samples, i);
  out[i] = pack_sample(sorted[position], global_first + position);
}

/// By one block of at least @p slots threads: copies the @p slots gathered samples to shared
/// @p gathered, rank-sorts them into shared @p ordered (each thread counts the samples before its
/// own) and leaves in @p valid how many are samples, not kNoSample (which sorts last).
static __device__ void order_gathered_samples(const std::uint64_t* samples, int slots, std::uint64_t* gathered,
                                              std::uint64_t* ordered, int* valid) {
  for (int i = threadIdx.x; i < slots; i += blockDim.x) gathered[i] = samples[i];
  __syncthreads();
  for (int i = threadIdx.x; i < slots; i += blockDim.x)
    ordered[sample_sorted_rank(gathered, static_cast<std::size_t>(slots), static_cast<std::size_t>(i))] = gathered[i];
  __syncthreads();
  if (threadIdx.x == 0) {
    int samples_found = 0;
    while (samples_found < slots && ordered[samples_found] != kNoSample) ++samples_found;
    *valid = samples_found;
  }
  __syncthreads();
}

/// One block: rank-sorts the @p slots gathered samples, picks splitter j (1 <= j < gpus) at
/// splitter_rank among the valid ones, and writes to @p counts[d] how many keys of the sorted
/// part @p sorted[0, count) (first global position @p global_first) fall in bucket d.
static __global__ void __launch_bounds__(kMaxSampleSlots)
    bucket_counts(const std::uint64_t* samples, int slots, int gpus, const std::uint32_t* sorted, std::size_t count,
                  std::size_t global_first, std::uint64_t* counts) {
  __shared__ std::uint64_t gathered[kMaxSampleSlots];
  __shared__ std::uint64_t ordered[kMaxSampleSlots];
  __shared__ std::size_t boundaries[kMaxGpus + 1];
  __shared__ int valid;
  order_gathered_samples(samples, slots, gathered, ordered, &valid);
  const int d = static_cast<int>(threadIdx.x);
  if (d <= gpus) {
    std::size_t boundary = count;
    if (d == 0)
      boundary = 0;
    else if (d < gpus && valid > 0)
      boundary = bucket_boundary(sorted, count, global_first,
                                 ordered[splitter_rank(d, static_cast<std::size_t>(valid), gpus)]);
    boundaries[d] = boundary;
  }
  __syncthreads();
  if (d < gpus) counts[d] = boundaries[d + 1] - boundaries[d];
}

/// Launches draw_samples on @p stream.
inline void launch_draw_samples(const std::uint32_t* sorted, std::size_t count, int samples, std::size_t global_first,
                                std::uint64_t* out, cudaStream_t stream) {
  const int threads = (samples + 31) / 32 * 32;
  draw_samples<<<1, threads, 0, stream>>>(sorted, count, samples, global_first, out);
  STEPWISE_CHECK_LAUNCH();
}

/// Launches bucket_counts on @p stream: one block of max(slots, gpus + 1) threads, rounded up to warps.
inline void launch_bucket_counts(const std::uint64_t* samples, int slots, int gpus, const std::uint32_t* sorted,
                                 std::size_t count, std::size_t global_first, std::uint64_t* counts,
                                 cudaStream_t stream) {
  const int wanted = slots > gpus + 1 ? slots : gpus + 1;
  const int threads = (wanted + 31) / 32 * 32;
  bucket_counts<<<1, threads, 0, stream>>>(samples, slots, gpus, sorted, count, global_first, counts);
  STEPWISE_CHECK_LAUNCH();
}

/// Checks that @p ops, its team and its workspace agree on the GPUs and n.
inline void require_consistent(const SortOperands& ops) {
  if (ops.workspace->gpus() != ops.team->size() || ops.parts.size() != static_cast<std::size_t>(ops.team->size()) ||
      ops.n != ops.workspace->n())
    throw std::invalid_argument("the sort workspace, the team and the parts disagree on the GPUs or n");
}

/// Enqueues the AllGather that gives every GPU every GPU's s sample slots, in place: GPU g's own
/// slots (g * s onwards) are its send buffer.
inline void all_gather_samples(const SortOperands& ops) {
  SortWorkspace& workspace = *ops.workspace;
  const std::size_t samples = static_cast<std::size_t>(workspace.samples());
  STEPWISE_NCCL_CHECK(ncclGroupStart());
  for (int g = 0; g < ops.team->size(); ++g) {
    std::uint64_t* slots = workspace.memory(g).samples.data();
    STEPWISE_NCCL_CHECK(ncclAllGather(slots + static_cast<std::size_t>(g) * samples, slots, samples, ncclUint64,
                                      ops.comms[static_cast<std::size_t>(g)], ops.team->stream(g)));
  }
  STEPWISE_NCCL_CHECK(ncclGroupEnd());
}

/// Gathers the G x G count matrix from row g of each GPU's counts (what GPU g sends to each GPU),
/// copies it back to the host and waits: NCCL's send and receive counts are host values. Returns
/// the matrix, row g = what GPU g sends.
/// @throws std::runtime_error if two GPUs gathered different matrices.
inline std::vector<std::uint64_t> gather_count_matrix(const SortOperands& ops) {
  const DeviceTeam& team = *ops.team;
  SortWorkspace& workspace = *ops.workspace;
  const int gpus = team.size();
  const std::size_t g_count = static_cast<std::size_t>(gpus);
  STEPWISE_NCCL_CHECK(ncclGroupStart());
  for (int g = 0; g < gpus; ++g) {
    std::uint64_t* counts = workspace.memory(g).counts.data();
    STEPWISE_NCCL_CHECK(ncclAllGather(counts + static_cast<std::size_t>(g) * g_count, counts, g_count, ncclUint64,
                                      ops.comms[static_cast<std::size_t>(g)], team.stream(g)));
  }
  STEPWISE_NCCL_CHECK(ncclGroupEnd());
  for (int g = 0; g < gpus; ++g) {
    const ScopedDevice device(g);
    STEPWISE_CUDA_CHECK(cudaMemcpyAsync(workspace.host_counts(g), workspace.memory(g).counts.data(),
                                        g_count * g_count * sizeof(std::uint64_t), cudaMemcpyDeviceToHost,
                                        team.stream(g)));
  }
  for (int g = 0; g < gpus; ++g) STEPWISE_CUDA_CHECK(cudaStreamSynchronize(team.stream(g)));
  std::vector<std::uint64_t> counts(workspace.host_counts(0), workspace.host_counts(0) + g_count * g_count);
  for (int g = 1; g < gpus; ++g)
    if (!std::equal(counts.begin(), counts.end(), workspace.host_counts(g)))
      throw std::runtime_error("the GPUs gathered different bucket counts");
  return counts;
}

}  // namespace stepwise::multigpu
