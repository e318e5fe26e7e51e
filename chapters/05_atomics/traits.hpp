/// @file traits.hpp
/// What the rest of the chapter reads about a histogram row, set in the row's own file: where
/// its bins live and how --analyze counts its atomics. Host code only: no CUDA header, no option
/// parser.
#pragma once

#include <vector>

#include "host/stage.hpp"
#include "host/types.hpp"

namespace stepwise::atomics {

/// How a row's atomics per element follow from the keys, as --analyze counts them.
enum class AtomicsModel {
  per_element,      ///< one atomic per element
  per_group,        ///< one per group of peers (distinct key) per warp
  adaptive,         ///< per group where the warp matches, per element where it skips the match
  per_thread_runs,  ///< one per run of equal keys inside a thread, the warp's last runs matched
};

/// What --analyze adds after a row's count: how the row finds its groups or merges its bins.
enum class AnalysisDetail {
  none,
  ballot_loop,     ///< the trips around the ballot loop per tile, and the shuffles of the sums
  match,           ///< one match per tile, and the shuffles of the sums
  subtree_rounds,  ///< one match per tile, and the sub-tree rounds per tile
  shared_merge,    ///< the merge of the block's bins into the global ones
  adaptive_skips,  ///< the share of tiles run without a match
  thread_runs,     ///< what counts as one atomic
};

/// The facts of one histogram row.
struct HistogramTraits {
  /// The row privatizes the bins in one block's shared memory when they fit there (and runs on
  /// the global bins when they do not, which the report's note says).
  bool privatizes_in_shared = false;
  AtomicsModel atomics = AtomicsModel::per_element;  ///< what --analyze counts
  AnalysisDetail detail = AnalysisDetail::none;      ///< what --analyze says beside it
};

/// A row as the host-only code reads it, without its launcher (facts_of() makes them from the
/// table).
using HistogramRow = RowFacts<HistogramTraits>;

}  // namespace stepwise::atomics
