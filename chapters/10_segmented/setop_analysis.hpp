/// @file setop_analysis.hpp
/// `--analyze` for the set operations: what each row searches and how the balanced cuts move
/// Merge Path's, and for a small input the Balanced Path itself, drawn. Host code only.
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

/// The drawing of a small example: A and B, the order Merge Path walks them (ties take A first),
/// the balanced order of the copies of each key, and the pieces between the balanced cuts every
/// @p spacing diagonals with what @p op keeps of each.
std::string draw_balanced_path(SetOp op, const SetInputs& sets, std::uint64_t spacing);

/// The whole --analyze text: the sizes and the output's length, each row's searches and tiles,
/// the moved cuts, and the drawing when the input has at most kDrawnElements elements.
std::string analyze_set_op(SetOp op, const SetInputs& sets, const std::vector<SetOpRow>& rows);

}  // namespace stepwise::segmented
