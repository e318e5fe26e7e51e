/// @file traits.hpp
/// What the rest of the chapter reads about a stage, set in the stage's own file: whether it
/// keeps the input order (how its output is checked, what the report's note says), what it costs
/// (--analyze's table), and which concept diagram --analyze --format json draws from it.
/// Host code only: no CUDA header, no option parser.
#pragma once

#include <string>
#include <vector>

#include "host/stage.hpp"
#include "host/types.hpp"

namespace stepwise::compaction {

/// Where a row's atomics on the output counter go.
enum class CounterAtomics {
  none,              ///< the row finds its places without the counter (a scan, a look-back)
  per_kept_element,  ///< one per kept element
  per_warp,          ///< one per 32-element warp holding a kept element
  per_tile,          ///< one per tile (threads x items elements) holding a kept element
};

/// A row's cost model, as --analyze counts it on the input.
struct SelectCost {
  CounterAtomics counter_atomics = CounterAtomics::none;
  /// One ticket atomic per tile, and a status per tile written and read (16 bytes).
  bool ticket_per_tile = false;
  int input_passes = 1;  ///< passes over the input: each after the first reads the test bytes again
  int launches = 1;      ///< kernels per run
  /// Device bytes of counts per block, for rows with a fixed grid of blocks per SM.
  double count_bytes_per_block = 0.0;
};

/// The concept diagram --analyze --format json draws from a row (at most one row each).
enum class Diagram {
  none,
  strided_tile,         ///< the packing of the row's strided tile (TileRanks)
  sliced_tile_lookback  ///< the packing of the row's warp-sliced tile, and its look-back window
};

/// The facts of one row of the chapter's table.
struct SelectTraits {
  /// True for a stable compaction (checked exactly); false for a row whose output order is the
  /// order its atomics are served (checked as a multiset).
  bool keeps_input_order = true;
  SelectCost cost;                  ///< what --analyze counts
  Diagram diagram = Diagram::none;  ///< what --analyze --format json draws from it
};

/// A row as the host-only code reads it (--analyze, the notes): what --list shows and its
/// traits, without its launcher (facts_of() makes them from the table).
using SelectRow = RowFacts<SelectTraits>;

}  // namespace stepwise::compaction
