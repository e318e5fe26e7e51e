/// @file atomics.hpp
/// Chapter 05: warp-aggregated atomics, from one atomic per element to one per distinct key
/// per warp, against cub::DeviceHistogram.
///
/// Two problems, one table each (main's `--problem`):
/// - **histogram**: a scatter-add of n values into K bins, `bins[key[i]] += value[i]`, with
///   one of three operations (Op): IntAdd counts (every value is 1: a histogram, what
///   cub::DeviceHistogram::HistogramEven computes), FloatAdd adds float values with the native
///   float atomicAdd, DoubleCas adds double values with an atomicCAS loop (the way any
///   operation without a native atomic is done).
/// - **ticket**: stream compaction's counter, `out[atomicAdd(counter, 1)] = v` for the values
///   that pass a filter: one address for the whole grid.
///
/// Every row runs for any n and any number of bins, with 64-bit indexing; a launcher only
/// enqueues work (it zeroes its output with cudaMemsetAsync first).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "host/stage.hpp"
#include "host/workspace.hpp"
#include "ops.hpp"
#include "traits.hpp"

namespace stepwise::atomics {

// ---------------------------------------------------------------------------------------------
// histogram

/// What every row of a histogram table is called with: n keys (each in [0, bin_count)), their
/// values (null for IntAdd), the bins (zeroed by the row, then accumulated), n, K, and the
/// scratch the table's rows share (CUB's temporary storage; allocated before timing).
template <class Op>
using HistogramLaunch = void (*)(const Key* keys, const typename Op::Value* values, typename Op::Bin* bins,
                                 std::size_t n, int bin_count, Workspace& workspace, const LaunchShape& shape,
                                 cudaStream_t stream);
/// A row of a histogram table.
template <class Op>
using HistogramStage = Stage<HistogramLaunch<Op>, HistogramTraits>;

/// The operators the histogram stages accumulate with, named once for every stage file: applies
/// `X(Op, ...)` to each (stage.hpp's STEPWISE_STAGE_ROW), joined by `;`.
#define HISTOGRAM_FOR_EACH_OP(X, ...) \
  X(IntAdd, __VA_ARGS__);             \
  X(FloatAdd, __VA_ARGS__);           \
  X(DoubleCas, __VA_ARGS__)
/// Instantiates the stage factory `HistogramStage<Op> factory<Op>()` for each operator: the last
/// line of every stages/histogram file.
#define HISTOGRAM_STAGE_ROWS(factory) HISTOGRAM_FOR_EACH_OP(STEPWISE_STAGE_ROW, HistogramStage, factory)

/// The histogram table of @p Op: stages 1-7 in teaching order, then (IntAdd only)
/// cub::DeviceHistogram::HistogramEven.
template <class Op>
const std::vector<HistogramStage<Op>>& histogram_stages();

/// Stage 1, stages/histogram/01_naive.cu (each row's file holds its lesson, kernel and launcher).
template <class Op>
HistogramStage<Op> histogram_naive();
/// Stage 2, stages/histogram/02_ballot_peers.cu.
template <class Op>
HistogramStage<Op> histogram_ballot_peers();
/// Stage 3, stages/histogram/03_match_peers.cu.
template <class Op>
HistogramStage<Op> histogram_match_peers();
/// Stage 4, stages/histogram/04_subtree.cu.
template <class Op>
HistogramStage<Op> histogram_subtree();
/// Stage 5, stages/histogram/05_shared.cu.
template <class Op>
HistogramStage<Op> histogram_shared();
/// Stage 6, stages/histogram/06_adaptive.cu.
template <class Op>
HistogramStage<Op> histogram_adaptive();
/// Stage 7, stages/histogram/07_thread_runs.cu.
template <class Op>
HistogramStage<Op> histogram_thread_runs();
/// cub::DeviceHistogram::HistogramEven, stages/histogram/lib_cub_histogram.cu (IntAdd only).
HistogramStage<IntAdd> histogram_library_cub();

/// The temporary storage the CUB row asks for at these sizes (asks CUB: needs a GPU).
std::size_t cub_histogram_temp_bytes(std::size_t n, int bin_count);

/// Bytes of shared memory the privatizing rows need for @p bin_count bins of @p bin_bytes each.
constexpr std::size_t shared_bins_bytes(int bin_count, std::size_t bin_bytes) {
  return static_cast<std::size_t>(bin_count) * bin_bytes;
}

/// The most shared memory one block of the current device may have (the opt-in limit): stages
/// 5 and 6 privatize the bins in shared memory when they fit in it, and otherwise run their
/// warp aggregation on the global bins (stage 4's kernel, or stage 6's without privatization).
std::size_t max_shared_bytes_per_block();

// ---------------------------------------------------------------------------------------------
// ticket

/// What every row of the ticket table is called with: n values in, the kept ones out (in any
/// order: out[0, count) after the run), the counter (one unsigned long long, zeroed by the row).
using TicketLaunch = void (*)(const std::int32_t* in, std::int32_t* out, unsigned long long* counter, std::size_t n,
                              const LaunchShape& shape, cudaStream_t stream);
/// A row of the ticket table.
using TicketStage = Stage<TicketLaunch>;

/// The ticket table: stage 1 (the naive counter) and stage 2 (warp-aggregated).
const std::vector<TicketStage>& ticket_stages();

/// Stage 1, stages/ticket/01_naive.cu.
TicketStage ticket_naive();
/// Stage 2, stages/ticket/02_warp_aggregated.cu.
TicketStage ticket_warp_aggregated();

}  // namespace stepwise::atomics
