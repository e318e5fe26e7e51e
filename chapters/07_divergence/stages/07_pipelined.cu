// Stage 7, pipelined on the GPU: the remap of step k+1 is computed on the GPU while step k runs.
//
// Changed from stage 6: the remap is no longer computed on the CPU and copied over the bus. A
// second, high-priority stream computes it on the GPU, into the other of two sets of buffers,
// while the main stream runs generation k through the current set. Events order the two:
// generation k waits for its remap, and the remap of k+1 waits until generation k-1 has released
// its set. Only the first generation's remap is exposed.
//
// Running two kernels at once does not make the second one free. The work's blocks fill every
// SM; what the remap runs, it runs in thread slots, issue cycles and bandwidth the work would have
// used. Overlap wins what the remap spends waiting (its launches, barriers and memory latency) and
// what the work leaves idle. So the remap here is built to be small: a counting sort whose grid
// is chosen. A first pass labels each element of a block's chunk with its path and counts the
// chunk's paths; a second gives each block its first place per path (the counts of all smaller
// paths, and of its own path in the blocks before it) and writes its chunk's indices there, 2048
// elements at a time, ranked by one ballot per path and warp. The remaps that overlap the work
// run on one block of 256 threads per SM, 1/8 of an SM's threads; the first remap, with nothing
// to hide behind, runs on 8 blocks per SM. The order puts the costliest path first
// (heaviest_first: the mutating individuals, then the ageing ones), which also makes the work's
// last wave the short one; the elements of each path keep their order. The README measures how
// much of stage 3's remap this hides. (A workload whose paths depend on the previous step's
// results, like the synthetic one, cannot be pipelined: its table has no stages 6 and 7.)
#include <algorithm>
#include <stdexcept>
#include <string>

#include "divergence.cuh"
#include "host/device.hpp"

namespace stepwise::divergence {
namespace {

/// Threads of a remap block, and the elements each thread takes in a tile (a tile is VT rounds
/// of 256 consecutive elements: 2048).
constexpr int kRemapThreads = 256;
constexpr int kRemapVT = 8;
constexpr int kRemapWarps = kRemapThreads / static_cast<int>(kWarp);
constexpr int kRemapTile = kRemapThreads * kRemapVT;
/// The (round, warp) slots of a tile, in the order of the elements: 64, two per lane.
constexpr int kRemapSlots = kRemapVT * kRemapWarps;
static_assert(kRemapSlots == 2 * static_cast<int>(kWarp), "a warp scans a path's slots, two per lane");
static_assert(kMaxPaths <= kRemapWarps, "one warp scans each path's slots");

/// The chunk of elements of remap block @p block: [begin, end), empty past n.
struct Chunk {
  std::size_t begin, end;
};
__device__ inline Chunk chunk_of(unsigned block, std::size_t chunk, std::size_t n) {
  const std::size_t begin = static_cast<std::size_t>(block) * chunk;
  return {begin, begin < n ? (n - begin < chunk ? n : begin + chunk) : begin};
}

/// The counting pass: block b labels each element of its chunk with its path's slot (keys[i])
/// and counts the chunk's slots into counts[s x gridDim.x + b], slot by slot, so that the counts
/// read in order are the order of the result.
template <class W>
__global__ void __launch_bounds__(kRemapThreads)
    count_paths(W work, PathSlots slots, const typename W::Item* src, std::size_t n, unsigned step, std::size_t chunk,
                std::uint8_t* keys, std::uint32_t* counts) {
  __shared__ unsigned block_counts[kMaxPaths];
  if (threadIdx.x < kMaxPaths) block_counts[threadIdx.x] = 0;
  __syncthreads();
  const Chunk mine = chunk_of(blockIdx.x, chunk, n);
  unsigned warp_counts[kMaxPaths] = {};  // indexed by constants only: registers
  for (std::size_t tile = mine.begin; tile < mine.end; tile += kRemapTile) {
#pragma unroll
    for (int v = 0; v < kRemapVT; ++v) {
      const std::size_t i = tile + static_cast<std::size_t>(v) * kRemapThreads + threadIdx.x;
      const unsigned p = i < mine.end ? slots.of(path_of(work, src, i, step)) : kMaxPaths;
      if (p < kMaxPaths) keys[i] = static_cast<std::uint8_t>(p);
#pragma unroll
      for (unsigned q = 0; q < kMaxPaths; ++q)
        if (q < work.paths) warp_counts[q] += __popc(__ballot_sync(0xFFFFFFFFu, p == q));
    }
  }
  if (threadIdx.x % kWarp == 0)
#pragma unroll
    for (unsigned q = 0; q < kMaxPaths; ++q)
      if (q < work.paths && warp_counts[q] != 0) atomicAdd(&block_counts[q], warp_counts[q]);
  __syncthreads();
  if (threadIdx.x < kMaxPaths) counts[threadIdx.x * gridDim.x + blockIdx.x] = block_counts[threadIdx.x];
}

/// The writing pass: block b's first place for path p is the count of every smaller path and
/// of path p in the blocks before b. It walks its chunk tile by tile: each thread reads its 8
/// elements' paths from the counting pass's keys (8 loads in flight), ranks each element among
/// its warp's elements of the same path and round (a ballot per path), and posts the warp's
/// count per path and round; after one barrier, warp q turns path q's 64 counts into places
/// (an exclusive scan in element order, from where path q's next element goes); after a second,
/// each thread writes its elements' indices there: order[place] = i. Stable, as the counting
/// pass's order. Three barriers per 2048 elements.
template <unsigned Paths>
__global__ void __launch_bounds__(kRemapThreads)
    scatter_by_path(const std::uint8_t* keys, std::size_t n, std::size_t chunk, const std::uint32_t* counts,
                    std::uint32_t* order) {
  __shared__ unsigned total[kMaxPaths], before[kMaxPaths], next[kMaxPaths];
  __shared__ unsigned slots[kMaxPaths][kRemapSlots];  // a tile's counts, then places, per path and slot
  if (threadIdx.x < kMaxPaths) total[threadIdx.x] = before[threadIdx.x] = 0;
  __syncthreads();
  for (unsigned e = threadIdx.x; e < Paths * gridDim.x; e += kRemapThreads) {
    const unsigned q = e / gridDim.x, block = e % gridDim.x, count = counts[e];
    if (count == 0) continue;
    atomicAdd(&total[q], count);
    if (block < blockIdx.x) atomicAdd(&before[q], count);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned smaller = 0;
    for (unsigned q = 0; q < kMaxPaths; ++q) {
      next[q] = smaller + before[q];
      smaller += total[q];
    }
  }
  __syncthreads();
  const Chunk mine = chunk_of(blockIdx.x, chunk, n);
  const unsigned warp = threadIdx.x / kWarp, lane = threadIdx.x % kWarp;
  const unsigned lanes_below = (1u << lane) - 1u;
  for (std::size_t tile = mine.begin; tile < mine.end; tile += kRemapTile) {
    unsigned path[kRemapVT], rank[kRemapVT];
#pragma unroll
    for (int v = 0; v < kRemapVT; ++v) {
      const std::size_t i = tile + static_cast<std::size_t>(v) * kRemapThreads + threadIdx.x;
      path[v] = i < mine.end ? keys[i] : kMaxPaths;
    }
#pragma unroll
    for (int v = 0; v < kRemapVT; ++v) {
      rank[v] = 0;
#pragma unroll
      for (unsigned q = 0; q < Paths; ++q) {
        const unsigned voters = __ballot_sync(0xFFFFFFFFu, path[v] == q);
        if (path[v] == q) rank[v] = __popc(voters & lanes_below);
        if (lane == 0) slots[q][v * kRemapWarps + warp] = __popc(voters);
      }
    }
    __syncthreads();
    if (warp < Paths) {
      const unsigned first = slots[warp][2 * lane], second = slots[warp][2 * lane + 1];
      unsigned inclusive = first + second;
      for (unsigned delta = 1; delta < kWarp; delta *= 2) {
        const unsigned below = __shfl_up_sync(0xFFFFFFFFu, inclusive, delta);
        if (lane >= delta) inclusive += below;
      }
      const unsigned start = next[warp] + inclusive - first - second;
      const unsigned tile_count = __shfl_sync(0xFFFFFFFFu, inclusive, kWarp - 1);
      slots[warp][2 * lane] = start;
      slots[warp][2 * lane + 1] = start + first;
      __syncwarp();  // every lane has read next[warp] before lane 0 moves it on
      if (lane == 0) next[warp] += tile_count;
    }
    __syncthreads();
#pragma unroll
    for (int v = 0; v < kRemapVT; ++v)
      if (path[v] < kMaxPaths)
        order[slots[path[v]][v * kRemapWarps + warp] + rank[v]] =
            static_cast<std::uint32_t>(tile + static_cast<std::size_t>(v) * kRemapThreads + threadIdx.x);
    __syncthreads();  // the next tile's counts overwrite slots
  }
}

/// The writing pass for @p paths paths (the counts' rows), compiled for 2 and for 8.
inline void launch_scatter(unsigned paths, unsigned blocks, const std::uint8_t* keys, std::size_t n, std::size_t chunk,
                           const std::uint32_t* counts, std::uint32_t* order, cudaStream_t stream) {
  if (paths <= 2)
    scatter_by_path<2><<<blocks, kRemapThreads, 0, stream>>>(keys, n, chunk, counts, order);
  else
    scatter_by_path<kMaxPaths><<<blocks, kRemapThreads, 0, stream>>>(keys, n, chunk, counts, order);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

template <class W>
void counting_remap(const DivergeArgs<W>& args, RemapScratch& workspace, unsigned step, int set, const PathSlots& slots,
                    unsigned blocks, cudaStream_t stream) {
  if (blocks < 1 || blocks > RemapScratch::kMaxRemapBlocks)
    throw std::invalid_argument("counting_remap: blocks must be 1 to " + std::to_string(RemapScratch::kMaxRemapBlocks));
  const std::size_t chunk = ceil_div(args.n == 0 ? 1 : args.n, blocks);
  const typename W::Item* src = W::kPathReadsItem ? step_buffers(args, step).src : nullptr;
  count_paths<<<blocks, kRemapThreads, 0, stream>>>(args.work, slots, src, args.n, step, chunk, workspace.keys(set),
                                                    workspace.path_counts(set));
  STEPWISE_CHECK_LAUNCH();
  launch_scatter(args.work.paths, blocks, workspace.keys(set), args.n, chunk, workspace.path_counts(set),
                 workspace.sorted_indices(set), stream);
}

namespace {

/// Blocks of the first remap, which nothing can hide: as many as fill the GPU (8 per SM).
unsigned foreground_blocks() {
  return static_cast<unsigned>(std::min(8 * current_sm_count(), RemapScratch::kMaxRemapBlocks));
}

template <class W>
void launch(const DivergeArgs<W>& args, RemapScratch& workspace, const LaunchShape& shape, cudaStream_t stream) {
  static_assert(!W::kPathReadsItem, "a pipelined remap needs paths that do not depend on the previous step");
  require_threads(shape.threads);
  const PathSlots slots = heaviest_first(args.work.rounds, args.work.paths);
  pipelined_steps(
      workspace, args.steps, stream,
      [&](unsigned step, int set, bool first, cudaStream_t side) {
        counting_remap(args, workspace, step, set, slots, first ? foreground_blocks() : overlapped_remap_blocks(),
                       side);
      },
      [&](unsigned step, int set, cudaStream_t work_stream) {
        const StepBuffers<W> buffers = step_buffers(args, step);
        apply_redirected<<<blocks_for(args.n, shape.threads), shape.threads, 0, work_stream>>>(
            args.work, buffers.src, buffers.dst, workspace.sorted_indices(set), args.n, step);
        STEPWISE_CHECK_LAUNCH();
      });
}

}  // namespace

template <class W>
DivergeStage<W> pipelined() {
  DivergeStage<W> stage;
  stage.name = "pipelined";
  stage.lesson = "the next step's remap on a second GPU stream while this step works: only the first remap shows";
  stage.shape = {256, 0, 0};
  stage.sweep = shape_grid({128, 256, 512});
  stage.launch = launch<W>;
  stage.number = 7;  // the same in both workloads' tables
  stage.traits.arrangement = Arrangement::heaviest_first;
  return stage;
}

template DivergeStage<Mutation> pipelined<Mutation>();
// counting_remap's signature names the workload: an X of its own.
#define COUNTING_REMAP(W, ...)                                                                                     \
  template void counting_remap<W>(const DivergeArgs<W>&, RemapScratch&, unsigned, int, const PathSlots&, unsigned, \
                                  cudaStream_t)
DIVERGENCE_FOR_EACH_WORKLOAD(COUNTING_REMAP);
#undef COUNTING_REMAP

}  // namespace stepwise::divergence
