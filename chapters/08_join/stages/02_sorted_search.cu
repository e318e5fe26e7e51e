// Stage 2, the talk's join: sorted searches for the bounds, a load-balancing search for the rows.
//
// Changed from stage 1, phase 1: A's keys are sorted, so their bounds in B are a vectorized
// sorted search, a merge of A with B split by Merge Path (chapter 03): every key of A and B is
// read once, with 16-byte coalesced loads, instead of 25 dependent loads per search. Three
// searches: the lower bounds of A in B, the upper bounds of A in B, and (right and outer joins)
// the lower bounds of B in A, from which each B row learns whether A holds its key.
// Changed in phase 3: the rows are written by the load-balancing search (chapter 03): tile t
// takes exactly NT x VT steps of the merge of the output rows 0, 1, 2, ... with the objects'
// offsets, so every thread writes VT rows (or passes VT objects that write none) whatever the
// counts are, and a warp's stores are contiguous: a key with 10^6 matches is spread over all
// the tiles it covers instead of one thread. This is the composition the talk draws: LB, UB,
// COUNTS, SCAN, then LBS and RANK give each row its pair.
#include "host/dispatch.hpp"
#include "join.cuh"

namespace stepwise::join {
namespace {

using Threads = IntList<128, 256>;
using Values = IntList<7, 11, 15>;

template <int NT, int VT>
void run(const JoinArgs& args, const Scratch& scratch, cudaStream_t stream) {
  launch_search<NT, VT, Bounds::lower>(args.a_keys, args.a_count, args.b_keys, args.b_count, scratch,
                                       StoreBound{scratch.lower}, stream);
  launch_search<NT, VT, Bounds::upper>(args.a_keys, args.a_count, args.b_keys, args.b_count, scratch,
                                       StoreBound{scratch.upper}, stream);
  if (keeps_unmatched_b(args.kind))
    launch_search<NT, VT, Bounds::lower>(
        args.b_keys, args.b_count, args.a_keys, args.a_count, scratch,
        StoreMatched{args.a_keys, static_cast<std::int64_t>(args.a_count), args.b_keys, scratch.b_matched}, stream);
  scan_row_counts(args, scratch, stream);
  launch_expansion<NT, VT>(args, scratch, stream);
}

void launch(const JoinArgs& args, Workspace& workspace, const LaunchShape& shape, cudaStream_t stream) {
  require_aligned(args.a_keys, 16);
  require_aligned(args.b_keys, 16);
  const Scratch scratch = carve(args, workspace);
  dispatch_tile(
      shape, Threads{}, Values{},
      [&](auto nt, auto vt) { run<decltype(nt)::value, decltype(vt)::value>(args, scratch, stream); },
      "threads per block", "values per thread");
}

}  // namespace

JoinStage join_sorted_search() {
  JoinStage stage;
  stage.name = "sorted-search";
  stage.lesson = "bounds by Merge Path sorted searches, rows by the load-balancing search: the talk's composition";
  stage.shape = {256, 15};
  stage.sweep = tile_grid(Threads{}, Values{});
  stage.launch = launch;
  return stage;
}

}  // namespace stepwise::join
