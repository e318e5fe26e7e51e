// Stage 9, pipelined with a lean remap: only the costliest path's elements are listed; the others
// run in place.
//
// Changed from stage 7: the remap no longer sorts every element. Stage 7's overlapped remaps cost
// the work 62 us each because what they execute (draws, ballots, 96 MiB of keys and indices per
// generation) comes out of the work's issue slots and bandwidth; overlap hides what a remap waits
// for, not what it does. So this remap does less, in the spirit of LAM (move only what must
// move): one pass draws each element's path, writes one bit per element (set: the costliest
// path) and lists the costliest path's elements, one atomicAdd per tile of 2048 reserving the
// tile's room (the list is ordered within a tile, tiles in the order their atomics are served:
// each element's result does not depend on where it is listed). The work kernel runs the cheap
// elements in place and the listed ones after them: its thread t ages element t unless its bit is
// set, and the last M threads (M the list's length) each mutate one listed element, in whole warps
// of the costliest path. The order matters because the next step's remap runs beside this step's
// work: the cheap elements come first and are bound by memory (16 bytes read and written for one
// round of arithmetic), so the remap's arithmetic runs while the work's arithmetic units are idle;
// with the listed elements first (the other order, measured in NOTES.md), it ran against the
// mutations' arithmetic and took three times as much of the work's time. With the mutation
// workload at 10 %: 6.7 MB of list and 2 MiB of bits per generation instead of 64 MiB of indices
// and 16 MiB of keys, one pass instead of two.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "divergence.cuh"
#include "host/device.hpp"

namespace stepwise::divergence {
namespace {

constexpr int kLeanThreads = 256;
constexpr int kLeanVT = 8;
constexpr int kLeanWarps = kLeanThreads / static_cast<int>(kWarp);
constexpr int kLeanTile = kLeanThreads * kLeanVT;
constexpr int kLeanSlots = kLeanVT * kLeanWarps;  // (round, warp) slots of a tile, in element order
static_assert(kLeanSlots == 2 * static_cast<int>(kWarp), "warp 0 scans the slots, two per lane");

/// The lean remap of step @p step: bit i of @p costly_bits is set when element i takes path
/// @p costliest; the indices of those elements go to list[0, *list_size) (list_size cleared by
/// the caller). A fixed grid walks tiles of 2048 consecutive elements; in a tile, element
/// tile + v x 256 + t is thread t's round v, so a warp's round is 32 consecutive elements and its
/// ballot is one word of the bits.
template <class W>
__global__ void __launch_bounds__(kLeanThreads)
    list_costliest(W work, unsigned costliest, std::size_t n, unsigned step, std::uint32_t* costly_bits,
                   std::uint32_t* list, unsigned* list_size) {
  __shared__ unsigned slots[kLeanSlots];  // each (round, warp)'s count, then its first place in the tile
  __shared__ unsigned tile_start;
  const unsigned warp = threadIdx.x / kWarp, lane = threadIdx.x % kWarp;
  const unsigned lanes_below = (1u << lane) - 1u;
  for (std::size_t tile = static_cast<std::size_t>(blockIdx.x) * kLeanTile; tile < n;
       tile += static_cast<std::size_t>(gridDim.x) * kLeanTile) {
    unsigned ballots[kLeanVT];
#pragma unroll
    for (int v = 0; v < kLeanVT; ++v) {
      const std::size_t i = tile + static_cast<std::size_t>(v) * kLeanThreads + threadIdx.x;
      const bool costly = i < n && path_of(work, static_cast<const typename W::Item*>(nullptr), i, step) == costliest;
      ballots[v] = __ballot_sync(0xFFFFFFFFu, costly);
      const std::size_t first = i - lane;
      if (lane == 0) {
        if (first < n) costly_bits[first / kWarp] = ballots[v];
        slots[v * kLeanWarps + warp] = __popc(ballots[v]);
      }
    }
    __syncthreads();
    if (warp == 0) {
      const unsigned first = slots[2 * lane], second = slots[2 * lane + 1];
      unsigned inclusive = first + second;
      for (unsigned delta = 1; delta < kWarp; delta *= 2) {
        const unsigned below = __shfl_up_sync(0xFFFFFFFFu, inclusive, delta);
        if (lane >= delta) inclusive += below;
      }
      const unsigned total = __shfl_sync(0xFFFFFFFFu, inclusive, kWarp - 1);
      slots[2 * lane] = inclusive - first - second;
      slots[2 * lane + 1] = inclusive - second;
      if (lane == 0) tile_start = total != 0 ? atomicAdd(list_size, total) : 0u;
    }
    __syncthreads();
#pragma unroll
    for (int v = 0; v < kLeanVT; ++v)
      if ((ballots[v] >> lane) & 1u)
        list[tile_start + slots[v * kLeanWarps + warp] + __popc(ballots[v] & lanes_below)] =
            static_cast<std::uint32_t>(tile + static_cast<std::size_t>(v) * kLeanThreads + threadIdx.x);
    __syncthreads();  // the next tile's counts overwrite slots and tile_start
  }
}

/// The work of one step through the lean remap: thread t runs element t in place unless its bit
/// is set; the last M threads (M = *list_size) also run the listed elements, thread n - M + j
/// element list[j].
template <class W>
__global__ void apply_lean(W work, const typename W::Item* src, typename W::Item* dst, const std::uint32_t* costly_bits,
                           const std::uint32_t* list, const unsigned* list_size, std::size_t n, unsigned step) {
  const std::size_t t = global_thread();
  const std::size_t listed_from = n - *list_size;
  if (t >= listed_from && t < n) {
    const std::size_t i = list[t - listed_from];
    const typename W::Item item = src[i];
    dst[i] = work.apply(item, work.path(item, i, step), i, step);
  }
  if (t < n && ((costly_bits[t / kWarp] >> (t % kWarp)) & 1u) == 0) {
    const typename W::Item item = src[t];
    dst[t] = work.apply(item, work.path(item, t, step), t, step);
  }
}

/// Blocks of the first remap, which nothing can hide: 8 per SM.
unsigned foreground_blocks() { return static_cast<unsigned>(8 * current_sm_count()); }

/// Set @p set's bits, list and list length (in the workspace's indices, sorted_indices and
/// path_counts of that set).
struct LeanRemap {
  std::uint32_t* costly_bits;
  std::uint32_t* list;
  unsigned* list_size;
};
LeanRemap lean_buffers(RemapScratch& workspace, int set) {
  return {workspace.indices(set), workspace.sorted_indices(set), workspace.path_counts(set)};
}

}  // namespace

template <class W>
void lean_remap(const DivergeArgs<W>& args, RemapScratch& workspace, unsigned step, int set, unsigned blocks,
                cudaStream_t stream) {
  static_assert(!W::kPathReadsItem, "the lean remap draws paths that do not depend on the items");
  if (blocks < 1) throw std::invalid_argument("lean_remap: blocks must be at least 1");
  const LeanRemap remap = lean_buffers(workspace, set);
  STEPWISE_CUDA_CHECK(cudaMemsetAsync(remap.list_size, 0, sizeof *remap.list_size, stream));
  if (args.n == 0) return;
  const unsigned grid = static_cast<unsigned>(std::min<std::size_t>(blocks, ceil_div(args.n, kLeanTile)));
  list_costliest<<<grid, kLeanThreads, 0, stream>>>(args.work, costliest_path(args.work.rounds, args.work.paths),
                                                    args.n, step, remap.costly_bits, remap.list, remap.list_size);
  STEPWISE_CHECK_LAUNCH();
}

namespace {

template <class W>
void launch(const DivergeArgs<W>& args, RemapScratch& workspace, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  pipelined_steps(
      workspace, args.steps, stream,
      [&](unsigned step, int set, bool first, cudaStream_t side) {
        lean_remap(args, workspace, step, set, first ? foreground_blocks() : overlapped_remap_blocks(), side);
      },
      [&](unsigned step, int set, cudaStream_t work_stream) {
        const StepBuffers<W> buffers = step_buffers(args, step);
        const LeanRemap remap = lean_buffers(workspace, set);
        apply_lean<<<blocks_for(args.n, shape.threads), shape.threads, 0, work_stream>>>(
            args.work, buffers.src, buffers.dst, remap.costly_bits, remap.list, remap.list_size, args.n, step);
        STEPWISE_CHECK_LAUNCH();
      });
}

}  // namespace

template <class W>
DivergeStage<W> pipelined_lean() {
  DivergeStage<W> stage;
  stage.name = "pipelined-lean";
  stage.lesson = "as stage 7, but the remap lists only the costliest path's elements; the others run in place";
  stage.shape = {256, 0, 0};
  stage.sweep = shape_grid({128, 256, 512});
  stage.launch = launch<W>;
  stage.number = 9;  // the same in both workloads' tables
  stage.traits.arrangement = Arrangement::lean;
  return stage;
}

template DivergeStage<Mutation> pipelined_lean<Mutation>();
template void lean_remap<Mutation>(const DivergeArgs<Mutation>&, RemapScratch&, unsigned, int, unsigned, cudaStream_t);

}  // namespace stepwise::divergence
