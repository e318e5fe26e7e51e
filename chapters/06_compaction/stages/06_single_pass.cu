// Stage 6, single pass with decoupled look-back (ordered, one kernel, input read once).
//
// Changed from stages 4 and 5: the counts no longer wait for a pass over the whole input. As in
// chapter 02's single-pass scan, a block draws a ticket (its tile number, in the order blocks
// really start), counts its tile exactly as stage 3 did, publishes the count at once, and its
// first warp looks back over the tiles before it for their kept total (common/device/lookback.cuh,
// with PackedCountStatus: flag and 62-bit count in one 64-bit word). That total is where the
// tile's kept elements go: stage 3's atomic replaced by a prefix, so the order is kept for
// free. Each element is read once and each kept element written once: n + Pn, a copy's traffic
// at 100 % and a read's at 0 %, in one launch.
#include "algorithm/lookback.hpp"
#include "compaction.cuh"
#include "device/lookback.cuh"
#include "host/check.hpp"
#include "host/dispatch.hpp"
#include "host/launch.hpp"

namespace stepwise::compaction {
namespace {

/// The first poll when --first-poll-ns is not given: CUB's L2 write latency for 4-byte values on
/// sm_90, which chapter 02 measured as the best first poll of its single-pass scan.
constexpr unsigned kSinglePassFirstPollNs = 1245;

/// Polls after the first one follow at once (chapter 02: a back-off between polls did not help).
constexpr unsigned kBackoffNs = 0;

template <int NT, int VT, class Selector>
__global__ void __launch_bounds__(NT)
    select_single_pass(Selector selector, std::size_t n, unsigned* ticket_counter, PackedCountStatus status,
                       unsigned long long* kept_count, unsigned first_poll_ns) {
  using Ranks = TileRanks<NT, VT>;
  constexpr int kTile = NT * VT;
  __shared__ typename Ranks::Storage storage;
  __shared__ unsigned ticket;
  __shared__ unsigned long long tile_prefix;
  if (threadIdx.x == 0) ticket = atomicAdd(ticket_counter, 1u);
  __syncthreads();
  const std::size_t tile = ticket;
  const std::size_t base = tile * kTile;
  const int count = n - base < kTile ? static_cast<int>(n - base) : kTile;
  Element<typename Selector::Key> x[VT];
  bool kept[VT];
  unsigned ballots[VT], offsets[VT];
  load_tile<NT, VT>(selector, base, count, x, kept);
  ballot_steps<VT>(kept, ballots, offsets);
  const unsigned total = Ranks::exclusive_offsets(offsets, storage);
  unsigned long long prefix = 0;
  if (tile == 0) {
    if (threadIdx.x == 0) status.publish(0, kTileInclusive, total);
  } else {
    if (threadIdx.x == 0) status.publish(tile, kTileAggregate, total);
    if (threadIdx.x < 32) {
      if (first_poll_ns != 0) __nanosleep(first_poll_ns);  // let the predecessors publish first
      const unsigned long long before = look_back(status, tile, Plus<unsigned long long>{}, kBackoffNs);
      if (threadIdx.x == 0) {
        status.publish(tile, kTileInclusive, before + total);
        tile_prefix = before;
      }
    }
    __syncthreads();
    prefix = tile_prefix;
  }
  if (threadIdx.x == 0 && base + count == n) *kept_count = prefix + total;
  scatter_tile<VT>(selector, prefix, offsets, ballots, kept, x);
}

using Threads = IntList<128, 256>;
using Values = IntList<8, 12, 16>;

template <class K>
void launch(const SelectArgs<K>& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  dispatch_tile(
      shape, Threads{}, Values{},
      [&](auto nt, auto vt) {
        constexpr int NT = decltype(nt)::value;
        constexpr int VT = decltype(vt)::value;
        static_assert(NT * VT >= kMinLookbackTile, "the workspace holds statuses for tiles of kMinLookbackTile");
        if (args.n == 0) {
          STEPWISE_CUDA_CHECK(cudaMemsetAsync(args.kept_count, 0, sizeof(*args.kept_count), stream));
          return;
        }
        const std::size_t tiles = ceil_div(args.n, NT * VT);
        const LookbackLayout layout = packed_lookback_layout(tiles);
        workspace.require(layout.total_bytes);
        STEPWISE_CUDA_CHECK(cudaMemsetAsync(workspace.data(), 0, layout.clear_bytes, stream));
        auto* ticket = reinterpret_cast<unsigned*>(workspace.data());
        const PackedCountStatus status{reinterpret_cast<unsigned long long*>(workspace.data() + layout.status_offset)};
        with_selector(args, [&](auto selector) {
          select_single_pass<NT, VT><<<grid_of(tiles), NT, 0, stream>>>(
              selector, args.n, ticket, status, args.kept_count, args.first_poll_ns.value_or(kSinglePassFirstPollNs));
          STEPWISE_CHECK_LAUNCH();
        });
      },
      "threads per block", "elements per thread");
}

}  // namespace

template <class K>
SelectStage<K> single_pass() {
  SelectStage<K> stage;
  stage.name = "single-pass";
  stage.lesson = "decoupled look-back: each tile's place from the counts of the tiles before it; one read, in order";
  stage.shape = {256, 12};
  stage.sweep = tile_grid(Threads{}, Values{});
  stage.launch = launch<K>;
  stage.options = {"--first-poll-ns"};
  stage.traits.cost.ticket_per_tile = true;
  return stage;
}

COMPACTION_STAGE_ROWS(single_pass);

}  // namespace stepwise::compaction
