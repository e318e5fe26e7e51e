// Stage 4, tuned: one merge for both bounds and B's matches, the scan of the counts fused into
// it by decoupled look-back, and B's unmatched rows scattered directly.
//
// Changed from stage 3, phase 1: the lower bounds need no merge of their own. In the upper merge
// A[i] is taken after every B key <= A[i], so its equal B keys are the ones just before its
// upper bound: galloping back from the upper bound through the tile's B keys in shared memory
// (1, 2, 4, ... keys back, then a binary search) finds the lower bound in one probe when A[i]
// has no match and in about 2 log2(matches) when it has, unless the run of equal keys starts
// before the tile's B range, which one comparison with the key before the range detects (then a
// binary search in global memory finds it; rare unless keys repeat thousands of times). A and B
// are read once.
// Changed in phase 2: the tile now knows the counts of its A rows and B rows, so it scans them
// at once instead of leaving them to CUB: a block scan inside the tile and chapter 02's
// decoupled look-back across tiles (common/device/lookback.cuh), on one 64-bit value that packs the A
// rows' count (high bits) and the B rows' count (low 31 bits): both prefixes travel together,
// since the merge's tiles are in A's order and in B's order at once. The bounds are not written
// and read back by a scan, and the offsets come out of the same kernel.
// Changed in phase 3: B's rows are no longer objects of the load-balancing search. An unmatched
// B row emits exactly one row, at (A's row total) + (its place among B's unmatched rows): a
// compaction (chapter 06), written by a kernel that reads one int per B row. The load-balancing
// search expands A's rows alone, and reads one int per A row, its first match (-1 for none),
// instead of both bounds. The tile is the sweep's best.
//
// Variant rows (--variants; `4 - change` is this stage with that one change undone): which of
// its changes pays, each measured against the stage as it stands. `one merge`: the lower bounds
// come from a sorted search of their own (stage 2's), which reads A and B once more before the
// tile, and the tile reads each A row's lower bound back instead of galloping to it. `fused scan`:
// the tile writes its counts (A's in the int array stage 4 leaves free, B's in b_rows) and CUB
// scans them, as in stage 3; with no look-back there is no ticket either, and B's
// scatter reads its rows' offsets and counts from the scan. `B scatter`: B's rows are objects of
// the load-balancing search again, which needs their offsets counted from A's row total; the
// fused scan counts B's prefixes from B's first row, since A's total is known to the last tile
// only, so a small pass adds it before the expansion (the price of undoing this change alone).
// `tile 256x11`: stage 3's tile, 256 x 15. Each change is undone alone: none needs another.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cub/device/device_scan.cuh>

#include "algorithm/lookback.hpp"
#include "device/block.cuh"
#include "device/lookback.cuh"
#include "device/thread_ops.hpp"
#include "host/check.hpp"
#include "host/dispatch.hpp"
#include "join.cuh"

namespace stepwise::join {
namespace {

/// The default tile (--sweep's best on an H100), and stage 3's, which it replaced.
constexpr int kThreads = 256;
constexpr int kValues = 11;
constexpr int kOneLaunchThreads = 256;
constexpr int kOneLaunchValues = 15;

/// The kernels' changes, all on: the stage as it stands. A variant row's struct turns one off.
struct Tuned {
  /// Each A row's lower bound by galloping back from its upper bound in the tile (else read
  /// from a sorted search of its own, run before the tile).
  static constexpr bool one_merge = true;
  /// The tile scans its counts by a block scan and decoupled look-back (else it writes them and
  /// CUB scans them).
  static constexpr bool fused_scan = true;
  /// B's unmatched rows written by scatter_unmatched_b (else B's rows are objects of the
  /// load-balancing search).
  static constexpr bool scatter_b = true;
};

/// Stage 4 as it stands: every change on, every shape of the sweep compiled.
struct AllChanges {
  using Kernel = Tuned;
  using Threads = IntList<128, 256>;
  using Values = IntList<7, 11, 15>;
};
/// A variant row runs at the default tile only, and compiles no other.
struct Variant : AllChanges {
  using Threads = IntList<kThreads>;
  using Values = IntList<kValues>;
};
/// `4 - one merge`: the lower bounds from a sorted search of their own.
struct WithoutOneMerge : Variant {
  struct Kernel : Tuned {
    static constexpr bool one_merge = false;
  };
};
/// `4 - fused scan`: the counts written, then scanned by CUB.
struct WithoutFusedScan : Variant {
  struct Kernel : Tuned {
    static constexpr bool fused_scan = false;
  };
};
/// `4 - B scatter`: B's rows in the load-balancing search.
struct WithoutBScatter : Variant {
  struct Kernel : Tuned {
    static constexpr bool scatter_b = false;
  };
};
/// `4 - tile 256x11`: stage 3's 256 x 15 tile.
struct WithOneLaunchTile : AllChanges {
  using Threads = IntList<kOneLaunchThreads>;
  using Values = IntList<kOneLaunchValues>;
};

/// A count of A rows and a count of B rows in one 64-bit value: A's above bit 31, B's below.
/// Both are at most 2^31 - 1 (a join's rows), so sums never carry from B's field into A's, and
/// the pair fits PackedCountStatus (below 2^62).
constexpr int kAShift = 31;
constexpr unsigned long long kBMask = (1ull << kAShift) - 1;

/// The lower bound of @p key in b[0, end) when every key there is at most @p key (end is its
/// upper bound): galloping back from @p end, 1, 2, 4, ... keys, to a key below @p key, then a
/// binary search between. One probe when b[end - 1] is below @p key.
__device__ __forceinline__ int gallop_lower_bound(const std::int32_t* b, int end, std::int32_t key) {
  int high = end;  // b[high, end) all equal key
  int step = 1;
  int low = 0;
  while (high > 0) {
    const int probe = high - step > 0 ? high - step : 0;
    if (b[probe] < key) {
      low = probe + 1;
      break;
    }
    high = probe;
    step *= 2;
  }
  return low + static_cast<int>(search_bound<Bounds::lower>(b + low, high - low, key, Less{}));
}

/// Tile `ticket` of the upper-bound merge of A and B: writes each A row's first match in B (-1
/// for none: the expansion needs no upper bound) and its rows' offset (offsets[a_size] = A's row total, by the last
/// tile), each B row's place among B's unmatched rows or -1 (when @p keep_b), and the join's row count (last tile).
/// @tparam Features Tuned, or a variant row's kernel. Without one_merge, first_match holds each A row's lower bound
///   in B on entry. Without fused_scan, the tile is blockIdx.x, and it writes each A row's count to offsets[row]
///   and each B row's to b_rows[row] (when @p keep_b), nothing else of the scan. Without scatter_b, b_rows holds
///   every B row's place among B's unmatched rows (the number of them before it).
template <int NT, int VT, class Features>
__global__ void __launch_bounds__(NT)
    bounds_and_offsets(const std::int32_t* __restrict__ a_keys, std::int64_t a_size,
                       const std::int32_t* __restrict__ b_keys, std::int64_t b_size,
                       const std::int64_t* __restrict__ partitions, std::int64_t tile_count, bool keep_a, bool keep_b,
                       unsigned* ticket_counter, PackedCountStatus status, std::int32_t* __restrict__ first_match,
                       std::int32_t* __restrict__ offsets, std::int32_t* __restrict__ b_rows,
                       unsigned long long* __restrict__ row_count) {
  constexpr int kTile = NT * VT;
  static_assert(kTile >= kMinTileItems, "the workspace holds statuses and partitions for kMinTileItems tiles");
  using Load = VectorizedRangeLoad<NT, VT, std::int32_t>;
  using Scan = BlockScan<NT, Plus<unsigned long long>>;
  __shared__ alignas(16) std::int32_t keys[kTile + Load::kPad];
  // After the merge: per A step its upper bound, per B step its lower bound in A (tile-local).
  // Then per step its count, then its offset within the tile.
  __shared__ std::int32_t steps[kTile];
  __shared__ typename Scan::Storage scan_storage;
  __shared__ unsigned ticket;
  __shared__ unsigned long long tile_prefix;
  std::int64_t tile = blockIdx.x;
  if constexpr (Features::fused_scan) {
    if (threadIdx.x == 0) ticket = atomicAdd(ticket_counter, 1u);
    __syncthreads();
    tile = ticket;
  }
  const MergeRange<std::int64_t> range =
      tile_merge_range<std::int64_t>(a_size, b_size, tile, kTile, partitions[tile], partitions[tile + 1]);
  const int a_count = static_cast<int>(range.a_count());
  const int b_count = static_cast<int>(range.b_count());
  Load load;
  load.load(a_keys, a_size, range.a_begin, a_count, b_keys, b_size, range.b_begin, b_count);
  const SharedRanges at = load.store(keys);
  __syncthreads();
  const std::int32_t* a = keys + at.a_offset;
  const std::int32_t* b = keys + at.b_offset;
  const int diagonal = min(VT * static_cast<int>(threadIdx.x), a_count + b_count);
  const int path = merge_path<Bounds::upper>(a, a_count, b, b_count, diagonal, Less{});
  serial_merge<VT, Bounds::upper>(a, path, a_count, b, diagonal - path, b_count, Less{},
                                  [&](int, bool from_a, int a_index, int b_index, const std::int32_t&) {
                                    if (from_a)
                                      steps[a_index] = b_index;
                                    else
                                      steps[a_count + b_index] = a_index;
                                  });
  __syncthreads();

  // Bounds and counts, a step per thread at a time (coalesced stores of the bounds).
  for (int j = threadIdx.x; j < a_count + b_count; j += NT) {
    std::int32_t count;
    if (j < a_count) {
      const std::int32_t key = a[j];
      const int upper_local = steps[j];
      std::int64_t first;
      if constexpr (Features::one_merge) {
        const int lower_local = gallop_lower_bound(b, upper_local, key);
        first = range.b_begin + lower_local;
        if (lower_local == 0 && range.b_begin > 0 && b_keys[range.b_begin - 1] == key)
          first = search_bound<Bounds::lower>(b_keys, range.b_begin, key, Less{});  // the run began before the tile
      } else {
        first = first_match[range.a_begin + j];  // the lower bound, from the search of its own
      }
      const std::int64_t end = range.b_begin + upper_local;
      first_match[range.a_begin + j] = end > first ? static_cast<std::int32_t>(first) : -1;
      count = end > first ? static_cast<std::int32_t>(end - first) : (keep_a ? 1 : 0);
    } else {
      const int local = steps[j];  // B's lower bound in A, tile-local
      const std::int64_t in_a = range.a_begin + local;
      const bool matched = in_a < a_size && (local < a_count ? a[local] : a_keys[in_a]) == b[j - a_count];
      count = keep_b && !matched ? 1 : 0;
    }
    if constexpr (Features::fused_scan)
      steps[j] = count;
    else if (j < a_count)
      offsets[range.a_begin + j] = count;
    else if (keep_b)
      b_rows[range.b_begin + j - a_count] = count;
  }
  if constexpr (!Features::fused_scan) return;  // CUB scans the counts
  __syncthreads();

  // The tile's exclusive prefix of (A rows, B rows): VT consecutive steps per thread (read
  // again below by the same thread only), a block scan, then the look-back for the tiles before.
  const int first_step = VT * static_cast<int>(threadIdx.x);
  const auto packed = [&](int j, std::int32_t count) {
    return j < a_count ? static_cast<unsigned long long>(count) << kAShift : static_cast<unsigned long long>(count);
  };
  unsigned long long thread_total = 0;
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    const int j = first_step + i;
    if (j < a_count + b_count) thread_total += packed(j, steps[j]);
  }
  unsigned long long aggregate;
  unsigned long long running = Scan::exclusive_scan(thread_total, aggregate, scan_storage, Plus<unsigned long long>{});
  unsigned long long prefix = 0;
  if (tile == 0) {
    if (threadIdx.x == 0) status.publish(0, kTileInclusive, aggregate);
  } else {
    if (threadIdx.x == 0) status.publish(tile, kTileAggregate, aggregate);
    if (threadIdx.x < 32) {
      const unsigned long long before = look_back(status, tile, Plus<unsigned long long>{}, 0);
      if (threadIdx.x == 0) {
        status.publish(tile, kTileInclusive, before + aggregate);
        tile_prefix = before;
      }
    }
    __syncthreads();
    prefix = tile_prefix;
  }
  running += prefix;
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    const int j = first_step + i;
    if (j >= a_count + b_count) break;
    const std::int32_t count = steps[j];
    if (j < a_count)
      steps[j] = static_cast<std::int32_t>(running >> kAShift);
    else if constexpr (Features::scatter_b)
      steps[j] = count != 0 ? static_cast<std::int32_t>(running & kBMask) : -1;
    else
      steps[j] = static_cast<std::int32_t>(running & kBMask);
    running += packed(j, count);
  }
  __syncthreads();
  for (int j = threadIdx.x; j < a_count; j += NT) offsets[range.a_begin + j] = steps[j];
  if (keep_b)
    for (int j = threadIdx.x; j < b_count; j += NT) b_rows[range.b_begin + j] = steps[a_count + j];
  if (tile == tile_count - 1 && threadIdx.x == 0) {
    const unsigned long long total = prefix + aggregate;
    offsets[a_size] = static_cast<std::int32_t>(total >> kAShift);
    *row_count = (total >> kAShift) + (total & kBMask);
  }
}

/// Phase 3 for B: unmatched B row j writes (-1, j) at row (A's row total) + b_rows[j], if that
/// row is below the capacity.
__global__ void scatter_unmatched_b(const std::int32_t* __restrict__ b_rows, std::int64_t b_size,
                                    const std::int32_t* __restrict__ a_row_total, std::int64_t capacity,
                                    std::int32_t* __restrict__ out_a, std::int32_t* __restrict__ out_b) {
  const std::int64_t j = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j >= b_size) return;
  const std::int32_t place = b_rows[j];
  if (place < 0) return;
  const std::int64_t row = static_cast<std::int64_t>(*a_row_total) + place;
  if (row >= capacity) return;
  out_a[row] = -1;
  out_b[row] = static_cast<std::int32_t>(j);
}

/// The `fused scan` variant's phase 3 for B: unmatched B row j (b_counts[j] = 1) writes (-1, j)
/// at row b_offsets[j] (from the scan: A's row total and the unmatched B rows before j), if that
/// row is below the capacity; thread 0 writes the join's row count, b_offsets[b_size].
__global__ void scatter_unmatched_b_by_offsets(const std::int32_t* __restrict__ b_counts, std::int64_t b_size,
                                               const std::int32_t* __restrict__ b_offsets, std::int64_t capacity,
                                               std::int32_t* __restrict__ out_a, std::int32_t* __restrict__ out_b,
                                               unsigned long long* __restrict__ row_count) {
  const std::int64_t j = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (j == 0) *row_count = static_cast<unsigned long long>(b_offsets[b_size]);
  if (j >= b_size || b_counts[j] == 0) return;
  const std::int64_t row = b_offsets[j];
  if (row >= capacity) return;
  out_a[row] = -1;
  out_b[row] = static_cast<std::int32_t>(j);
}

/// The `B scatter` variant, before the expansion: B row k's offset among the objects, b_offsets[k]
/// = b_offsets[0] (A's row total) + b_places[k] (the unmatched B rows before k), for k in
/// [1, b_size), and b_offsets[b_size] = the join's row count.
__global__ void offset_b_rows(const std::int32_t* __restrict__ b_places, std::int64_t b_size,
                              std::int32_t* __restrict__ b_offsets, const unsigned long long* __restrict__ row_count) {
  const std::int64_t k = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x + 1;
  if (k > b_size) return;
  b_offsets[k] = k < b_size ? b_offsets[0] + b_places[k] : static_cast<std::int32_t>(*row_count);
}

/// The `fused scan` variant's counts as CUB reads them: object o's count, A row o's from
/// @p a_counts, B row o - a_count's from @p b_counts (a right or outer join), 0 past the last.
struct WrittenCount {
  const std::int32_t* a_counts;
  const std::int32_t* b_counts;
  std::int64_t a_count;
  std::int64_t object_count;
  __host__ __device__ std::int32_t operator()(std::int64_t object) const {
    if (object < a_count) return a_counts[object];
    return object < object_count ? b_counts[object - a_count] : 0;
  }
};

/// The `fused scan` variant's phase 2: scratch.offsets[o] = the rows of objects 0 .. o-1 for
/// o = 0 .. object_count_of(args), from the counts in scratch.upper (A's) and scratch.b_rows (B's).
void scan_written_counts(const JoinArgs& args, const Scratch& scratch, cudaStream_t stream) {
  const auto objects = static_cast<std::int64_t>(object_count_of(args));
  const thrust::transform_iterator<WrittenCount, thrust::counting_iterator<std::int64_t>> counts(
      thrust::counting_iterator<std::int64_t>(0),
      WrittenCount{scratch.upper, scratch.b_rows, static_cast<std::int64_t>(args.a_count), objects});
  std::size_t bytes = scratch.scan_temp_bytes;
  STEPWISE_CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(scratch.scan_temp, bytes, counts, scratch.offsets, objects + 1, stream));
}

/// @tparam Features Tuned, or a variant row's kernel
template <int NT, int VT, class Features>
void run(const JoinArgs& args, const Scratch& scratch, cudaStream_t stream) {
  constexpr int kTile = NT * VT;
  const auto a_count = static_cast<std::int64_t>(args.a_count);
  const auto b_count = static_cast<std::int64_t>(args.b_count);
  const bool keep_b = keeps_unmatched_b(args.kind);
  if (a_count + b_count == 0) {
    STEPWISE_CUDA_CHECK(cudaMemsetAsync(scratch.offsets, 0, sizeof(std::int32_t), stream));
    STEPWISE_CUDA_CHECK(cudaMemsetAsync(args.row_count, 0, sizeof(*args.row_count), stream));
  } else {
    const std::size_t tiles = ceil_div(args.a_count + args.b_count, kTile);
    const LookbackLayout layout = packed_lookback_layout(tiles);
    if constexpr (!Features::one_merge)  // each A row's lower bound, read by the tile from scratch.lower
      launch_search<NT, VT, Bounds::lower>(args.a_keys, args.a_count, args.b_keys, args.b_count, scratch,
                                           StoreBound{scratch.lower}, stream);
    if constexpr (Features::fused_scan)
      STEPWISE_CUDA_CHECK(cudaMemsetAsync(scratch.lookback, 0, layout.clear_bytes, stream));
    launch_merge_path_partitions<Bounds::upper>(args.a_keys, a_count, args.b_keys, b_count, kTile, scratch.partitions,
                                                Less{}, stream);
    // Without the fused scan the tile writes A's counts where stage 4 keeps no upper bounds.
    bounds_and_offsets<NT, VT, Features><<<grid_of(tiles), NT, 0, stream>>>(
        args.a_keys, a_count, args.b_keys, b_count, scratch.partitions, static_cast<std::int64_t>(tiles),
        keeps_unmatched_a(args.kind), keep_b, reinterpret_cast<unsigned*>(scratch.lookback),
        PackedCountStatus{reinterpret_cast<unsigned long long*>(scratch.lookback + layout.status_offset)},
        scratch.lower, Features::fused_scan ? scratch.offsets : scratch.upper, scratch.b_rows, args.row_count);
    STEPWISE_CHECK_LAUNCH();
    if constexpr (!Features::fused_scan) scan_written_counts(args, scratch, stream);
  }
  RowWriter writer = row_writer_of(args, scratch);
  writer.upper = nullptr;  // scratch.lower holds first matches, -1 for none
  constexpr int kThreads = 256;
  if constexpr (Features::scatter_b) {
    const bool scatter = keep_b && b_count > 0;
    // The fused scan wrote the row count; after CUB's, the expansion writes it (A's rows are all
    // there are) or the scatter does.
    launch_expansion<NT, VT>(args, scratch, stream, args.a_count,
                             Features::fused_scan || scatter ? nullptr : args.row_count, writer);
    if (scatter) {
      if constexpr (Features::fused_scan) {
        scatter_unmatched_b<<<grid_of(ceil_div(args.b_count, kThreads)), kThreads, 0, stream>>>(
            scratch.b_rows, b_count, scratch.offsets + a_count, static_cast<std::int64_t>(args.capacity), args.out_a,
            args.out_b);
      } else {
        scatter_unmatched_b_by_offsets<<<grid_of(ceil_div(args.b_count, kThreads)), kThreads, 0, stream>>>(
            scratch.b_rows, b_count, scratch.offsets + a_count, static_cast<std::int64_t>(args.capacity), args.out_a,
            args.out_b, args.row_count);
      }
      STEPWISE_CHECK_LAUNCH();
    }
  } else {
    // B's rows are objects after A's: the fused scan's places become offsets past A's row total.
    if (Features::fused_scan && keep_b && b_count > 0) {
      offset_b_rows<<<grid_of(ceil_div(args.b_count, kThreads)), kThreads, 0, stream>>>(
          scratch.b_rows, b_count, scratch.offsets + a_count, args.row_count);
      STEPWISE_CHECK_LAUNCH();
    }
    launch_expansion<NT, VT>(args, scratch, stream, object_count_of(args),
                             Features::fused_scan ? nullptr : args.row_count, writer);
  }
}

/// @tparam Changes AllChanges, or a variant row's struct
template <class Changes = AllChanges>
void launch(const JoinArgs& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  require_aligned(args.a_keys, 16);
  require_aligned(args.b_keys, 16);
  const Scratch scratch = carve(args, workspace);
  dispatch_tile(
      shape, typename Changes::Threads{}, typename Changes::Values{},
      [&](auto nt, auto vt) {
        constexpr int NT = decltype(nt)::value;
        constexpr int VT = decltype(vt)::value;
        if (ceil_div(args.a_count + args.b_count, NT * VT) > scratch.lookback_tiles)
          throw std::invalid_argument("the workspace holds too few look-back statuses for this join");
        run<NT, VT, typename Changes::Kernel>(args, scratch, stream);
      },
      "threads per block", "values per thread");
}

}  // namespace

JoinStage join_tuned() {
  JoinStage stage;
  stage.name = "tuned";
  stage.lesson = "one merge for both bounds, the scan fused by decoupled look-back, B's unmatched rows scattered";
  stage.shape = {kThreads, kValues};
  stage.sweep = tile_grid(AllChanges::Threads{}, AllChanges::Values{});
  stage.launch = launch<>;
  // Each change undone alone.
  stage.variants = {
      variant_of(stage, "one merge", "the lower bounds from a sorted search of their own, read back by the tile",
                 launch<WithoutOneMerge>),
      variant_of(stage, "fused scan", "the counts written, then scanned by CUB", launch<WithoutFusedScan>),
      variant_of(stage, "B scatter",
                 "B's rows objects of the load-balancing search, offset past A's row total by a pass of their own",
                 launch<WithoutBScatter>),
      variant_of(stage, "tile 256x11", "stage 3's tile, 256 x 15", launch<WithOneLaunchTile>),
  };
  stage.variants.back().shape = {kOneLaunchThreads, kOneLaunchValues};
  return stage;
}

}  // namespace stepwise::join
