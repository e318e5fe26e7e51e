/// @file setop_analysis.hpp
/// `--analyze` for the set operations: what each row searches and how the balanced cuts move
/// Merge Path's, and for a small input the Balanced Path itself, drawn as text; or all of it as
/// one JSON document (`--format json`) with a fixed small example for tools/plot's setop-path
/// diagram (tools/stepwise_plot/analysis/segmented.py). Host code only.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/stage.hpp"
#include "setop_data.hpp"

namespace stepwise::segmented {

/// How a row finds what to keep, as --analyze counts it (set in each stage's file).
enum class SetWork {
  library,      ///< the library decides
  per_element,  ///< binary searches per element, a scan of the decisions, searches again to place
  tiled,        ///< balanced-path tiles, a serial set-op loop per thread, two passes over the inputs
  one_pass,     ///< balanced-path tiles placed by decoupled look-back: one pass
};

/// The facts of one row, set in its own file.
struct SetOpTraits {
  SetWork work = SetWork::library;
};

/// A row as host-only code reads it.
using SetOpRow = RowFacts<SetOpTraits>;

/// The inputs no larger than this are drawn by --analyze, element by element.
inline constexpr std::uint64_t kDrawnElements = 48;

/// How many of the cuts at the diagonals 0, @p spacing, 2 @p spacing, ... (and the end) the
/// balancing moves off Merge Path's: the cuts where Merge Path would split a pair of equal keys.
std::uint64_t moved_cuts(const SetInputs& sets, std::uint64_t spacing);

/// One element of an order of the two inputs: A[index] or B[index].
struct SetElement {
  char side = 'A';
  std::int64_t index = 0;
};

/// One piece of the Balanced Path: the elements between the balanced cut before it and the one
/// on @p diagonal, Merge Path's cut on the same diagonal, and what the op keeps of the piece.
struct BalancedPiece {
  std::int64_t diagonal = 0;
  std::int64_t merge_a = 0, merge_b = 0;  ///< Merge Path's cut on the diagonal (merge_path: ties take A)
  std::int64_t a_begin = 0, a_end = 0;    ///< the piece's A elements; a_end is the balanced cut's a
  std::int64_t b_begin = 0, b_end = 0;    ///< the piece's B elements; b_end is the balanced cut's b
  std::vector<SetKey> kept;               ///< what serial_set_op keeps of the piece, in output order
  bool moved() const { return a_end != merge_a; }
};

/// The Balanced Path of @p sets for @p op, as the kernels cut it: Merge Path's order (ties take
/// A first), the balanced order of the copies of each key (balanced_cut on every diagonal), and
/// the pieces between the balanced cuts every @p spacing diagonals, each with serial_set_op's
/// output.
struct BalancedPath {
  std::vector<SetElement> merge_order;
  std::vector<SetElement> balanced_order;
  std::vector<BalancedPiece> pieces;
};

/// The Balanced Path of @p sets cut every @p spacing diagonals (the last piece ends at |A| + |B|).
BalancedPath balanced_path(SetOp op, const SetInputs& sets, std::uint64_t spacing);

/// The drawing of a small example: A and B, the order Merge Path walks them (ties take A first),
/// the balanced order of the copies of each key, and the pieces between the balanced cuts every
/// @p spacing diagonals with what @p op keeps of each.
std::string draw_balanced_path(SetOp op, const SetInputs& sets, std::uint64_t spacing);

/// The example the JSON document draws, whatever --n and --sets are: a dozen keys on each side
/// with runs of duplicates, so that some cuts every kSetopExampleSpacing diagonals move.
const SetInputs& setop_example_sets();
/// The diagonals between two cuts of the example.
inline constexpr std::uint64_t kSetopExampleSpacing = 4;

/// The whole --analyze text: the sizes and the output's length, each row's searches and tiles,
/// the moved cuts, and the drawing when the input has at most kDrawnElements elements.
std::string analyze_set_op(SetOp op, const SetInputs& sets, const std::vector<SetOpRow>& rows);

/// The same as one JSON document: `{"analysis": "segmented", "chapter": "10", "problem": "setop",
/// "op", "sets", "n", "seed", "a_count", "b_count", "kept", "bound", "rows", "setop_path"}`, with
/// @p sets drawn as --sets (@p input) and --seed (@p seed) say, and "setop_path" the Balanced
/// Path of setop_example_sets() for @p op (balanced_path, every kSetopExampleSpacing diagonals).
std::string analyze_set_op_json(SetOp op, SetInput input, std::uint64_t seed, const SetInputs& sets,
                                const std::vector<SetOpRow>& rows);

}  // namespace stepwise::segmented
