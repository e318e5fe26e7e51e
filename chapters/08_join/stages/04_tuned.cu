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
#include "algorithm/lookback.hpp"
#include "device/block.cuh"
#include "device/lookback.cuh"
#include "device/thread_ops.hpp"
#include "host/check.hpp"
#include "host/dispatch.hpp"
#include "join.cuh"

namespace stepwise::join {
namespace {

using Threads = IntList<128, 256>;
using Values = IntList<7, 11, 15>;

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
template <int NT, int VT>
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
  if (threadIdx.x == 0) ticket = atomicAdd(ticket_counter, 1u);
  __syncthreads();
  const std::int64_t tile = ticket;
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
      const int lower_local = gallop_lower_bound(b, upper_local, key);
      std::int64_t first = range.b_begin + lower_local;
      if (lower_local == 0 && range.b_begin > 0 && b_keys[range.b_begin - 1] == key)
        first = search_bound<Bounds::lower>(b_keys, range.b_begin, key, Less{});  // the run began before the tile
      const std::int64_t end = range.b_begin + upper_local;
      first_match[range.a_begin + j] = end > first ? static_cast<std::int32_t>(first) : -1;
      count = end > first ? static_cast<std::int32_t>(end - first) : (keep_a ? 1 : 0);
    } else {
      const int local = steps[j];  // B's lower bound in A, tile-local
      const std::int64_t in_a = range.a_begin + local;
      const bool matched = in_a < a_size && (local < a_count ? a[local] : a_keys[in_a]) == b[j - a_count];
      count = keep_b && !matched ? 1 : 0;
    }
    steps[j] = count;
  }
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
    else
      steps[j] = count != 0 ? static_cast<std::int32_t>(running & kBMask) : -1;
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

template <int NT, int VT>
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
    STEPWISE_CUDA_CHECK(cudaMemsetAsync(scratch.lookback, 0, layout.clear_bytes, stream));
    launch_merge_path_partitions<Bounds::upper>(args.a_keys, a_count, args.b_keys, b_count, kTile, scratch.partitions,
                                                Less{}, stream);
    bounds_and_offsets<NT, VT><<<grid_of(tiles), NT, 0, stream>>>(
        args.a_keys, a_count, args.b_keys, b_count, scratch.partitions, static_cast<std::int64_t>(tiles),
        keeps_unmatched_a(args.kind), keep_b, reinterpret_cast<unsigned*>(scratch.lookback),
        PackedCountStatus{reinterpret_cast<unsigned long long*>(scratch.lookback + layout.status_offset)},
        scratch.lower, scratch.offsets, scratch.b_rows, args.row_count);
    STEPWISE_CHECK_LAUNCH();
  }
  RowWriter writer = row_writer_of(args, scratch);
  writer.upper = nullptr;  // scratch.lower holds first matches, -1 for none
  launch_expansion<NT, VT>(args, scratch, stream, args.a_count, nullptr, writer);
  if (keep_b && b_count > 0) {
    constexpr int kThreads = 256;
    scatter_unmatched_b<<<grid_of(ceil_div(args.b_count, kThreads)), kThreads, 0, stream>>>(
        scratch.b_rows, b_count, scratch.offsets + a_count, static_cast<std::int64_t>(args.capacity), args.out_a,
        args.out_b);
    STEPWISE_CHECK_LAUNCH();
  }
}

void launch(const JoinArgs& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  require_aligned(args.a_keys, 16);
  require_aligned(args.b_keys, 16);
  const Scratch scratch = carve(args, workspace);
  dispatch_tile(
      shape, Threads{}, Values{},
      [&](auto nt, auto vt) {
        constexpr int NT = decltype(nt)::value;
        constexpr int VT = decltype(vt)::value;
        if (ceil_div(args.a_count + args.b_count, NT * VT) > scratch.lookback_tiles)
          throw std::invalid_argument("the workspace holds too few look-back statuses for this join");
        run<NT, VT>(args, scratch, stream);
      },
      "threads per block", "values per thread");
}

}  // namespace

JoinStage join_tuned() {
  JoinStage stage;
  stage.name = "tuned";
  stage.lesson = "one merge for both bounds, the scan fused by decoupled look-back, B's unmatched rows scattered";
  stage.shape = {256, 11};
  stage.sweep = tile_grid(Threads{}, Values{});
  stage.launch = launch;
  return stage;
}

}  // namespace stepwise::join
