/// @file divergence.cuh
/// The kernels the stages share: the per-element work as the divergent stage writes it, the
/// classification of elements by path, the remap (a sort by path), and the work run through an
/// index (reference redirection) or on moved data (data transformation).
#pragma once

#include <thrust/iterator/counting_iterator.h>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>

#include <cstddef>
#include <cstdint>

#include "divergence.hpp"
#include "host/check.hpp"
#include "host/device.hpp"
#include "host/launch.hpp"

namespace stepwise::divergence {

/// Stage 1's work on one synthetic element, as it is first written: one branch per path, each
/// its own loop over its own mixer. A warp holding elements of several paths runs every case
/// one of its lanes needs, one after another.
__device__ inline std::uint32_t divergent_apply(const Synthetic& work, std::uint32_t item, unsigned p, std::size_t,
                                                unsigned) {
  std::uint32_t x = item;
  switch (p) {
    case 0:
      x = mix_rounds<0>(x, work.rounds[0]);
      break;
    case 1:
      x = mix_rounds<1>(x, work.rounds[1]);
      break;
    case 2:
      x = mix_rounds<2>(x, work.rounds[2]);
      break;
    case 3:
      x = mix_rounds<3>(x, work.rounds[3]);
      break;
    case 4:
      x = mix_rounds<4>(x, work.rounds[4]);
      break;
    case 5:
      x = mix_rounds<5>(x, work.rounds[5]);
      break;
    case 6:
      x = mix_rounds<6>(x, work.rounds[6]);
      break;
    default:
      x = mix_rounds<7>(x, work.rounds[7]);
      break;
  }
  return (x & ~Synthetic::kPathMask) | p;
}

/// Stage 1's mutation step, as it is first written: mutate, or else age.
__device__ inline Genome divergent_apply(const Mutation& work, Genome g, unsigned p, std::size_t i, unsigned step) {
  std::uint32_t state = mutation_draw(work.seed ^ 0x5DEECE66Dull, step, i);
  if (p != 0) {
    state ^= g.word[1];
    for (unsigned r = 0; r < work.rounds[1]; ++r) flip_one_bit(g, state);
  } else {
    state ^= g.word[0];
    for (unsigned r = 0; r < work.rounds[0]; ++r) flip_one_bit(g, state);
  }
  return g;
}

/// The source and destination of step @p step of a run: step 0 reads the input, and the
/// buffers alternate so that the last step writes args.out.
template <class W>
struct StepBuffers {
  const typename W::Item* src;
  typename W::Item* dst;
};

template <class W>
StepBuffers<W> step_buffers(const DivergeArgs<W>& args, unsigned step) {
  auto buffer = [&](unsigned k) { return (args.steps - 1 - k) % 2 == 0 ? args.out : args.spare; };
  return {step == 0 ? args.in : buffer(step - 1), buffer(step)};
}

/// Element @p i's path in step @p step; the element is read only where the path depends on it.
template <class W>
__device__ unsigned path_of(const W& work, const typename W::Item* src, std::size_t i, unsigned step) {
  typename W::Item item{};
  if constexpr (W::kPathReadsItem) item = src[i];
  return work.path(item, i, step);
}

/// The global index of this thread.
__device__ inline std::size_t global_thread() {
  return static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}

/// Each thread its own element, in place: dst[i] = work(src[i]). With @p Divergent, the work as
/// stage 1 writes it (divergent_apply); otherwise as one loop (W::apply). With @p skip_flagged,
/// elements whose flag is set are left to a remapped launch (stage 5).
template <class W, bool Divergent>
__global__ void apply_own(W work, const typename W::Item* src, typename W::Item* dst, std::size_t n, unsigned step,
                          const std::uint8_t* skip_flagged) {
  const std::size_t i = global_thread();
  if (i >= n || (skip_flagged != nullptr && skip_flagged[i] != 0)) return;
  const typename W::Item item = src[i];
  const unsigned p = work.path(item, i, step);
  if constexpr (Divergent)
    dst[i] = divergent_apply(work, item, p, i, step);
  else
    dst[i] = work.apply(item, p, i, step);
}

/// Labels each element with its path, and its index: the (key, value) pairs of the remap's sort.
template <class W>
__global__ void classify(W work, const typename W::Item* src, std::size_t n, unsigned step, std::uint8_t* keys,
                         std::uint32_t* indices) {
  const std::size_t i = global_thread();
  if (i >= n) return;
  keys[i] = static_cast<std::uint8_t>(path_of(work, src, i, step));
  indices[i] = static_cast<std::uint32_t>(i);
}

/// Labels each element with its path, and flags the elements of divergent warps: a warp of 32
/// consecutive elements whose paths are not all equal (lanes past n take lane 0's path, so a
/// short last warp is judged by the elements it has). The block size is a multiple of 32.
template <class W>
__global__ void classify_warps(W work, const typename W::Item* src, std::size_t n, unsigned step, std::uint8_t* keys,
                               std::uint8_t* flags) {
  const std::size_t i = global_thread();
  const bool inside = i < n;
  unsigned p = inside ? path_of(work, src, i, step) : 0u;
  const unsigned first = __shfl_sync(0xFFFFFFFFu, p, 0);
  if (!inside) p = first;
  const bool uniform = __all_sync(0xFFFFFFFFu, p == first);
  if (inside) {
    keys[i] = static_cast<std::uint8_t>(p);
    flags[i] = uniform ? 0 : 1;
  }
}

/// Reference redirection: thread t works on element order[t], wherever it lies.
template <class W>
__global__ void apply_redirected(W work, const typename W::Item* src, typename W::Item* dst, const std::uint32_t* order,
                                 std::size_t m, unsigned step) {
  const std::size_t t = global_thread();
  if (t >= m) return;
  const std::size_t i = order[t];
  const typename W::Item item = src[i];
  dst[i] = work.apply(item, work.path(item, i, step), i, step);
}

/// Data transformation, there: staged[t] = src[order[t]] (the elements in path order).
template <class Item>
__global__ void gather(const Item* src, const std::uint32_t* order, std::size_t m, Item* staged) {
  const std::size_t t = global_thread();
  if (t < m) staged[t] = src[order[t]];
}

/// The work on moved elements: thread t reads and writes position t (coalesced); the element's
/// original index, which its random stream depends on, comes from order[t].
template <class W>
__global__ void apply_staged(W work, const typename W::Item* staged, const std::uint32_t* order, std::size_t m,
                             unsigned step, typename W::Item* results) {
  const std::size_t t = global_thread();
  if (t >= m) return;
  const std::size_t i = order[t];
  const typename W::Item item = staged[t];
  results[t] = work.apply(item, work.path(item, i, step), i, step);
}

/// Data transformation, back: dst[order[t]] = results[t] (the results in the input's order).
template <class Item>
__global__ void scatter(const Item* results, const std::uint32_t* order, std::size_t m, Item* dst) {
  const std::size_t t = global_thread();
  if (t < m) dst[order[t]] = results[t];
}

/// Bits of a path key: enough for @p paths values (at least 1).
inline int path_bits(unsigned paths) {
  int bits = 1;
  while ((1u << bits) < paths) ++bits;
  return bits;
}

/// The remap: sorts @p m (path, index) pairs by path into set @p set's sorted arrays. The sort
/// is stable, so each path's elements keep their order: a warp of the result reads 32
/// consecutive elements of one path wherever it can.
inline void sort_by_path(RemapScratch& workspace, int set, const std::uint8_t* keys, const std::uint32_t* indices,
                         std::size_t m, unsigned paths, cudaStream_t stream) {
  std::size_t bytes = workspace.cub_bytes();
  STEPWISE_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(workspace.cub_storage(), bytes, keys, workspace.sorted_keys(set),
                                                      indices, workspace.sorted_indices(set),
                                                      static_cast<std::uint32_t>(m), 0, path_bits(paths), stream));
}

/// Blocks of @p threads for @p count threads' worth of work.
inline unsigned blocks_for(std::size_t count, int threads) {
  return grid_of(ceil_div(count == 0 ? 1 : count, static_cast<std::size_t>(threads)));
}

/// Every step of a run with each thread on its own element: stage 1 (@p Divergent, the branch
/// per path), stage 2 and stage 8 when it does not remap.
template <class W, bool Divergent>
void own_steps(const DivergeArgs<W>& args, int threads, cudaStream_t stream) {
  for (unsigned step = 0; step < args.steps; ++step) {
    const StepBuffers<W> buffers = step_buffers(args, step);
    apply_own<W, Divergent><<<blocks_for(args.n, threads), threads, 0, stream>>>(args.work, buffers.src, buffers.dst,
                                                                                 args.n, step, nullptr);
    STEPWISE_CHECK_LAUNCH();
  }
}

/// Blocks of a remap that runs beside the work (stages 7 and 9): one per SM, so that the work's
/// blocks keep the rest of every SM.
inline unsigned overlapped_remap_blocks() { return static_cast<unsigned>(current_sm_count()); }

/// The pipeline of stages 7 and 9, double-buffered: the remap of step 0 into set 0, then, for
/// each step k, the remap of step k + 1 into set (k + 1) % 2 on the workspace's side stream while
/// step k's work reads set k % 2 on @p stream. Events make each work wait for its set's remap and
/// each remap wait until the work that last read its set is done.
/// @param workspace the two sets of remap buffers, the side stream and the events
/// @param steps the steps (generations) to run
/// @param stream the work's stream; the remaps run on the workspace's side stream
/// @param remap `remap(step, set, first, side)` enqueues the remap of @p step into @p set on
///   `side`; `first` is true for step 0's, which has no work to hide behind.
/// @param work `work(step, set, stream)` enqueues step @p step's work through set @p set.
template <class Remap, class Work>
void pipelined_steps(RemapScratch& workspace, unsigned steps, cudaStream_t stream, Remap&& remap, Work&& work) {
  const cudaStream_t side = workspace.side_stream();
  const cudaEvent_t start = workspace.event(0);
  const cudaEvent_t ready[2] = {workspace.event(1), workspace.event(2)};
  const cudaEvent_t released[2] = {workspace.event(3), workspace.event(4)};
  STEPWISE_CUDA_CHECK(cudaEventRecord(start, stream));
  STEPWISE_CUDA_CHECK(cudaStreamWaitEvent(side, start, 0));
  remap(0u, 0, true, side);
  STEPWISE_CUDA_CHECK(cudaEventRecord(ready[0], side));
  for (unsigned step = 0; step < steps; ++step) {
    const int set = static_cast<int>(step % 2);
    const int next = 1 - set;
    if (step + 1 < steps) {
      if (step >= 1) STEPWISE_CUDA_CHECK(cudaStreamWaitEvent(side, released[next], 0));
      remap(step + 1, next, false, side);
      STEPWISE_CUDA_CHECK(cudaEventRecord(ready[next], side));
    }
    STEPWISE_CUDA_CHECK(cudaStreamWaitEvent(stream, ready[set], 0));
    work(step, set, stream);
    STEPWISE_CUDA_CHECK(cudaEventRecord(released[set], stream));
  }
}

/// Stage 3's step: classify, sort by path, run every element through the sorted order.
template <class W>
void redirected_step(const DivergeArgs<W>& args, RemapScratch& workspace, unsigned step, int threads,
                     cudaStream_t stream) {
  const StepBuffers<W> buffers = step_buffers(args, step);
  const unsigned blocks = blocks_for(args.n, threads);
  classify<<<blocks, threads, 0, stream>>>(args.work, buffers.src, args.n, step, workspace.keys(0),
                                           workspace.indices(0));
  STEPWISE_CHECK_LAUNCH();
  sort_by_path(workspace, 0, workspace.keys(0), workspace.indices(0), args.n, args.work.paths, stream);
  apply_redirected<<<blocks, threads, 0, stream>>>(args.work, buffers.src, buffers.dst, workspace.sorted_indices(0),
                                                   args.n, step);
  STEPWISE_CHECK_LAUNCH();
}

/// Stage 5's step: only the elements of divergent warps are moved (LAM's label, assign, move,
/// simplified): uniform warps run in place, the others are selected, sorted by path, moved,
/// run, and moved back. Reads the count of moved elements back to the host (it sizes the
/// sort). @return the number of elements moved.
template <class W>
std::size_t partial_step(const DivergeArgs<W>& args, RemapScratch& workspace, unsigned step, int threads,
                         cudaStream_t stream) {
  using Item = typename W::Item;
  const StepBuffers<W> buffers = step_buffers(args, step);
  const unsigned blocks = blocks_for(args.n, threads);
  classify_warps<<<blocks, threads, 0, stream>>>(args.work, buffers.src, args.n, step, workspace.keys(0),
                                                 workspace.flags());
  STEPWISE_CHECK_LAUNCH();
  apply_own<W, false>
      <<<blocks, threads, 0, stream>>>(args.work, buffers.src, buffers.dst, args.n, step, workspace.flags());
  STEPWISE_CHECK_LAUNCH();
  const auto count = static_cast<std::uint32_t>(args.n);
  unsigned long long* moved = workspace.counters();
  std::size_t bytes = workspace.cub_bytes();
  STEPWISE_CUDA_CHECK(cub::DeviceSelect::Flagged(workspace.cub_storage(), bytes,
                                                 thrust::counting_iterator<std::uint32_t>(0), workspace.flags(),
                                                 workspace.indices(0), moved, count, stream));
  bytes = workspace.cub_bytes();
  STEPWISE_CUDA_CHECK(cub::DeviceSelect::Flagged(workspace.cub_storage(), bytes, workspace.keys(0), workspace.flags(),
                                                 workspace.keys(1), moved, count, stream));
  STEPWISE_CUDA_CHECK(cudaMemcpyAsync(workspace.host_counters(), moved, sizeof *moved, cudaMemcpyDeviceToHost, stream));
  STEPWISE_CUDA_CHECK(cudaStreamSynchronize(stream));
  const std::size_t m = workspace.host_counters()[0];
  if (m == 0) return 0;
  sort_by_path(workspace, 0, workspace.keys(1), workspace.indices(0), m, args.work.paths, stream);
  const std::uint32_t* order = workspace.sorted_indices(0);
  auto* staged = static_cast<Item*>(workspace.staged());
  auto* results = static_cast<Item*>(workspace.staged_results());
  const unsigned moved_blocks = blocks_for(m, threads);
  gather<<<moved_blocks, threads, 0, stream>>>(buffers.src, order, m, staged);
  STEPWISE_CHECK_LAUNCH();
  apply_staged<<<moved_blocks, threads, 0, stream>>>(args.work, staged, order, m, step, results);
  STEPWISE_CHECK_LAUNCH();
  scatter<<<moved_blocks, threads, 0, stream>>>(results, order, m, buffers.dst);
  STEPWISE_CHECK_LAUNCH();
  return m;
}

}  // namespace stepwise::divergence
