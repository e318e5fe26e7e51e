// Stage 1, the naïve join: a thread per row, binary searches, a thread per object writes its rows.
//
// The three phases as a first CUDA program writes them. Phase 1: one thread per A row runs two
// binary searches of its key in B (lower and upper bound: its matches are B[lower, upper)),
// and, for a right or outer join, one thread per B row runs a binary search of its key in A to
// learn whether anything matches it. Each search is ceil(log2(n + 1)) dependent loads, most of
// them misses once B is larger than the L2. Phase 2: the rows each object emits, and their
// exclusive scan (CUB's). Phase 3: one thread per object writes that object's rows one after
// another. The writes of neighbouring threads land far apart (each thread starts at its own
// offset), and one key with many matches keeps one thread busy while its warp idles: with a
// duplication of 64, one thread writes 64 rows while its neighbours write theirs in parallel
// elsewhere, and a heavy key of 10^6 matches takes 10^6 serial steps.
#include "join.cuh"

namespace stepwise::join {
namespace {

/// Phase 1 by binary search: threads [0, a_count) are A rows, the rest B rows (right and outer
/// joins only).
__global__ void bounds_by_binary_search(const std::int32_t* __restrict__ a_keys, std::int64_t a_count,
                                        const std::int32_t* __restrict__ b_keys, std::int64_t b_count,
                                        std::int64_t searchers, std::int32_t* __restrict__ lower,
                                        std::int32_t* __restrict__ upper, std::uint8_t* __restrict__ b_matched) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= searchers) return;
  if (i < a_count) {
    const std::int32_t key = a_keys[i];
    lower[i] = static_cast<std::int32_t>(search_bound<Bounds::lower>(b_keys, b_count, key, Less{}));
    upper[i] = static_cast<std::int32_t>(search_bound<Bounds::upper>(b_keys, b_count, key, Less{}));
  } else {
    const std::int64_t j = i - a_count;
    const std::int32_t key = b_keys[j];
    const std::int64_t at = search_bound<Bounds::lower>(a_keys, a_count, key, Less{});
    b_matched[j] = at < a_count && a_keys[at] == key;
  }
}

/// Phase 3, a thread per object: object o writes its rows offsets[o] .. offsets[o + 1] - 1
/// (those below the capacity) one after another. Thread 0 writes the row count.
__global__ void expand_per_object(RowWriter writer, const std::int32_t* __restrict__ offsets, std::int64_t object_count,
                                  std::int64_t capacity, unsigned long long* row_count) {
  const std::int64_t object = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (object == 0) *row_count = static_cast<unsigned long long>(offsets[object_count]);
  if (object >= object_count) return;
  const std::int64_t first = offsets[object];
  const std::int64_t end = offsets[object + 1] < capacity ? offsets[object + 1] : capacity;
  for (std::int64_t row = first; row < end; ++row)
    writer.write(static_cast<std::int32_t>(row), static_cast<std::int32_t>(object),
                 static_cast<std::int32_t>(row - first));
}

void launch(const JoinArgs& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  require_threads(shape.threads);
  const Scratch scratch = carve(args, workspace);
  const auto a_count = static_cast<std::int64_t>(args.a_count);
  const auto b_count = static_cast<std::int64_t>(args.b_count);
  const std::int64_t searchers = a_count + (keeps_unmatched_b(args.kind) ? b_count : 0);
  if (searchers > 0) {
    bounds_by_binary_search<<<grid_of(ceil_div(searchers, shape.threads)), shape.threads, 0, stream>>>(
        args.a_keys, a_count, args.b_keys, b_count, searchers, scratch.lower, scratch.upper, scratch.b_matched);
    STEPWISE_CHECK_LAUNCH();
  }
  scan_row_counts(args, scratch, stream);
  const std::size_t objects = object_count_of(args);
  expand_per_object<<<grid_of(std::max<std::size_t>(1, ceil_div(objects, shape.threads))), shape.threads, 0, stream>>>(
      row_writer_of(args, scratch), scratch.offsets, static_cast<std::int64_t>(objects),
      static_cast<std::int64_t>(args.capacity), args.row_count);
  STEPWISE_CHECK_LAUNCH();
}

}  // namespace

JoinStage join_naive() {
  JoinStage stage;
  stage.name = "naive";
  stage.lesson = "a thread per row: binary searches for the bounds, a thread per object writes its rows";
  stage.shape = {256};
  stage.sweep = shape_grid({128, 256, 512});
  stage.launch = launch;
  return stage;
}

}  // namespace stepwise::join
