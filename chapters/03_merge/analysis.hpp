/// @file analysis.hpp
/// What `--analyze` prints, without a GPU: the Merge Path of a small example drawn in text (the
/// grid, the cross diagonals, the cross points, which thread takes which ranges), the talk's
/// worked examples of the sorted search and the load-balancing search, and the work each stage
/// of the chosen table does at the run's sizes (binary-search steps, bytes, the DRAM floor).
/// Every number comes from the functions the kernels run (common/algorithm/merge_path.hpp and friends); the
/// same examples come as JSON (`--format json`) for the concept diagrams of `tools/plot analysis`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "options.hpp"

namespace stepwise::merge {

/// One step of a merge: from A or from B, and the index it took.
struct PathStep {
  bool from_a = true;
  int index = 0;
};

/// The steps of the stable merge of @p a and @p b (ties take A), from serial_merge.
std::vector<PathStep> merge_steps(const std::vector<int>& a, const std::vector<int>& b);

/// The Merge Path picture of @p a and @p b for tiles of @p nt threads x @p vt values: the grid
/// with the path and the thread diagonals, then one line per thread (its diagonal, its cross
/// point from merge_path, the A and B ranges it merges, its outputs) and per tile.
std::string merge_path_picture(const std::vector<int>& a, const std::vector<int>& b, int nt, int vt);

/// The naive stage on @p a and @p b: where each element goes (i + its rank in the other array).
std::string naive_ranks(const std::vector<int>& a, const std::vector<int>& b);

/// The whole `--analyze` text for @p plan.
std::string analyze(const Plan& plan);

/// The same examples as one JSON document (`--analyze --format json`, for `tools/plot analysis`):
/// `{"analysis": "merge", "chapter": "03", ...}` with
/// - `merge_path`: the small merge (`a`, `b`, `nt`, `vt`), its `path` step by step (`from` A or B,
///   `index`, `key`), its `tiles` and `threads` (diagonals `first` .. `last`, `a_begin`/`a_end`,
///   `b_begin`/`b_end`: merge_path's cross points), and where the naive stage puts each key;
/// - `sorted_search`: the talk's needles and haystack (letters) with their lower and upper bounds;
/// - `load_balance`: the talk's 40 objects (`counts`, `offsets`), each item's object and rank, the
///   merge's `steps` in order (`{"item", "object"}` or `{"starts": object}`) and its `tiles` of
///   `nt` x `vt` steps (`items_begin`/`items_end`, `objects_begin`/`objects_end`);
/// - `work`: the work table of @p plan's problem at its sizes, with the DRAM floor at the H100's
///   peak.
/// Every number comes from the functions the kernels run, like the text's.
std::string analysis_json(const Plan& plan);

/// What `--analyze` prints with `--format` @p format: analyze() for table, analysis_json() for json.
/// @throws UsageError for any other format.
std::string analysis(Format format, const Plan& plan);

/// The talk's load-balancing example: 40 objects' counts (79 items), as its slide lists them.
const std::vector<int>& talk_lbs_counts();
/// The slide's load-balancing search of those counts: the object of each of the 79 items.
const std::vector<int>& talk_lbs_objects();

}  // namespace stepwise::merge
