// Stage 1: one binary search per element. Every element of A decides on its own whether the set
// operation keeps it: its rank r among A's copies of its key (its index minus the key's lower
// bound in A) against the key's count in B (upper minus lower bound in B): intersection keeps
// the copies r < count, difference the copies r >= count, union all of A; B's side, for union and
// symmetric difference, keeps its copies r >= A's count (set_ops.hpp, keeps_a and keeps_b).
// That is three binary searches per element, none of which depends on another element, so the
// kernel is one thread per element and obviously right.
//
// The output's size depends on the data, so the stage counts, then writes: the first kernel
// writes each element's decision (0 or 1, 64-bit), CUB's exclusive scan turns the decisions of
// A then B into places (the scan's lesson is chapter 02's; its last entry is the output's
// length), and the second kernel searches once more for each kept element's place: the kept A
// elements before it plus the kept B elements with smaller keys (equal keys: A's copies first,
// as std::set_union writes them). Cost: four or five searches per element in global memory, each
// a chain of dependent loads, and n 8-byte decisions written and scanned: the Merge Path stages
// replace all of it with one search per tile and per thread.
#include <cub/device/device_scan.cuh>

#include "host/check.hpp"
#include "host/launch.hpp"
#include "setop.cuh"

namespace stepwise::segmented {
namespace {

/// decisions[e] = 1 when the op keeps element e of A then B (e < a_count + b_count), else 0.
template <class K>
__global__ void decide(SetOp op, const K* __restrict__ a, std::int64_t a_count, const K* __restrict__ b,
                       std::int64_t b_count, std::int64_t* __restrict__ decisions) {
  const std::int64_t total = a_count + b_count;
  for (std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    const bool kept = e < a_count ? element_kept_a(op, a, a_count, b, b_count, e)
                                  : element_kept_b(op, a, a_count, b, b_count, e - a_count);
    decisions[e] = kept ? 1 : 0;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) decisions[total] = 0;  // the scan's last entry: the length
}

/// Writes every kept element to its place: @p places is the exclusive scan of the decisions
/// (places[a_count] is the kept A count, places[total] the output's length).
template <class K>
__global__ void place(const K* __restrict__ a, std::int64_t a_count, const K* __restrict__ b, std::int64_t b_count,
                      const std::int64_t* __restrict__ places, K* __restrict__ out) {
  const std::int64_t total = a_count + b_count;
  const std::int64_t kept_a = places[a_count];
  for (std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
       e += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    if (places[e + 1] == places[e]) continue;  // not kept
    if (e < a_count) {
      const K key = a[e];
      const std::int64_t lower = search_bound<Bounds::lower>(b, b_count, key, Less{});
      out[output_place_a(places[e], places[a_count + lower] - kept_a)] = key;
    } else {
      const K key = b[e - a_count];
      const std::int64_t upper = search_bound<Bounds::upper>(a, a_count, key, Less{});
      out[output_place_b(places[e] - kept_a, places[upper])] = key;
    }
  }
}

void launch(const SetOpArgs& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  const auto a_count = static_cast<std::int64_t>(args.a_count);
  const auto b_count = static_cast<std::int64_t>(args.b_count);
  const std::int64_t total = a_count + b_count;
  const PerElementScratch scratch = carve_per_element(workspace, args.a_count, args.b_count);
  const unsigned grid = resident_grid(shape);
  decide<<<grid, shape.threads, 0, stream>>>(args.op, args.a, a_count, args.b, b_count, scratch.places);
  STEPWISE_CHECK_LAUNCH();
  std::size_t bytes = scratch.scan_temp_bytes;
  STEPWISE_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch.scan_temp, bytes, scratch.places, scratch.places,
                                                    static_cast<std::int64_t>(total + 1), stream));
  if (total > 0) {
    place<<<grid, shape.threads, 0, stream>>>(args.a, a_count, args.b, b_count, scratch.places, args.out);
    STEPWISE_CHECK_LAUNCH();
  }
  STEPWISE_CUDA_CHECK(
      cudaMemcpyAsync(args.out_count, scratch.places + total, sizeof(std::int64_t), cudaMemcpyDeviceToDevice, stream));
}

}  // namespace

SetOpStage setop_per_element() {
  SetOpStage stage;
  stage.name = "per-element-search";
  stage.lesson = "a thread per element: 3 binary searches decide, a scan of the decisions, a search places";
  stage.shape = {256, 0, 8};
  stage.sweep = shape_grid({128, 256, 512}, {}, {4, 8});
  stage.launch = launch;
  stage.traits.work = SetWork::per_element;
  return stage;
}

}  // namespace stepwise::segmented
