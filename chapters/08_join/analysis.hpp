/// @file analysis.hpp
/// What `--analyze` prints, without a GPU: the talk's two worked joins computed by the very
/// sorted search and load-balancing search the kernels run (inputs.hpp's join_columns, from
/// common/algorithm/sorted_search.hpp and common/algorithm/load_balance.hpp). The inner-join walk-through with its
/// input columns (LB, UB, COUNTS, SCAN) and output columns (LBS, SCAN[LBS], RANK, the B row),
/// the load-balancing search's merge of output rows and offsets cut into tiles, and the outer
/// join's 26 rows. As text, or as JSON (`--format json`) for the concept diagrams of
/// `tools/plot analysis`. Host code only.
#pragma once

#include <string>
#include <vector>

#include "inputs.hpp"
#include "host/types.hpp"

namespace stepwise::join {

/// The talk's inner-join walk-through: A = A A B D F F F F G, B = A A A B C E E F F (each key
/// is its letter's character code).
JoinInput talk_inner_input();

/// The talk's outer-join table: A = A A B E E E E F F G H H J J M M, B = A A B B B C C F G G H I
/// L L (each key is its letter's character code).
JoinInput talk_outer_input();

/// The tile of the expansion example: NT x VT = 2 x 3, 6 steps of the merge a tile.
inline constexpr int kExampleThreads = 2;
inline constexpr int kExampleValues = 3;

/// One tile of the load-balancing search's merge of the output rows 0 .. rows - 1 with the A
/// rows' offsets: steps [first, last), output rows [rows_begin, rows_end), offsets (the A rows
/// whose first output row falls in the tile, or that emit none there) [objects_begin, objects_end).
struct ExpansionTile {
  int first = 0, last = 0;
  int rows_begin = 0, rows_end = 0;
  int objects_begin = 0, objects_end = 0;
};

/// The tiles of @p spacing steps of the merge of @p rows output rows with @p offsets (one per A
/// row), as the expansion's partition kernel cuts them (merge_path, ties taking the offset).
std::vector<ExpansionTile> expansion_tiles(const std::vector<std::int32_t>& offsets, int rows, int spacing);

/// The whole `--analyze` text.
std::string analysis_text();

/// The same as one JSON document: `{"analysis": "join", "chapter": "08", ...}` with
/// - `inner_join`: `a` and `b` (letters), `lower`, `upper`, `counts` and `scan` per A row (scan
///   has one more entry: the row count), and per output row `lbs`, `scan_at_lbs`, `rank` and
///   `b_row` (LB[LBS] + RANK);
/// - `load_balance`: the expansion as a load-balancing search (`item_name` "output row",
///   `object_name` "A row"): `counts`, `offsets`, `items`, each item's object and rank, the
///   merge's `steps` in order (`{"item", "object"}` or `{"starts": object}`), its `tiles` of `nt`
///   x `vt` steps (`items_begin`/`items_end`, `objects_begin`/`objects_end`), and `slide_items`:
///   the slide's count, which leaves out SCAN[0];
/// - `outer_join`: `a`, `b` (letters) and its `rows` in order (`a`, `b`, `join`: inner, left or
///   right).
std::string analysis_json();

/// analysis_text() for @p format table, analysis_json() for json.
/// @throws UsageError for any other format.
std::string analysis(Format format);

}  // namespace stepwise::join
