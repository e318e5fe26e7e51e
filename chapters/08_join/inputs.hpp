/// @file inputs.hpp
/// The chapter's problem on the host: two sorted int32 key columns, the four join kinds, the
/// sequential sort-merge join every stage is checked against, and the talk's intermediate
/// columns (bounds, counts, their scan, the load-balancing search) computed with the very
/// sorted search and load-balancing search the kernels run (common/algorithm/sorted_search.hpp,
/// common/algorithm/load_balance.hpp). Host code only.
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace stepwise::join {

/// Which rows a join emits besides the matches (Baxter's four kinds).
enum class JoinKind {
  inner,  ///< only the pairs of equal keys
  left,   ///< and every A row without a match, paired with -1
  right,  ///< and every B row without a match, paired with -1
  outer   ///< both
};

/// `inner`, `left`, `right`, `outer`.
const char* to_string(JoinKind kind);
/// @throws std::invalid_argument for anything but the four names.
JoinKind parse_join(const std::string& text);
/// Whether the kind keeps A rows that match nothing (left, outer).
constexpr bool keeps_unmatched_a(JoinKind kind) { return kind == JoinKind::left || kind == JoinKind::outer; }
/// Whether the kind keeps B rows that match nothing (right, outer).
constexpr bool keeps_unmatched_b(JoinKind kind) { return kind == JoinKind::right || kind == JoinKind::outer; }

/// Rows, objects (A rows + B rows) and output rows are int32 indices: at most this many.
inline constexpr std::size_t kMaxRows = INT_MAX;

/// Two sorted key columns.
struct JoinInput {
  std::vector<std::int32_t> a;  ///< table A's keys, non-decreasing
  std::vector<std::int32_t> b;  ///< table B's keys, non-decreasing
};

/// A join's output: row r pairs A row a_index[r] with B row b_index[r]; -1 stands for the
/// missing side of an unmatched row. The order is the talk's: A's rows in order, each with its
/// matches in B's order (or its one unmatched row), then B's unmatched rows in B's order.
struct JoinPairs {
  std::vector<std::int32_t> a_index;
  std::vector<std::int32_t> b_index;
  std::size_t size() const { return a_index.size(); }
};

/// Draws @p a_rows and @p b_rows keys, each uniform over the same key range of
/// max(1, round(b_rows / duplication)) keys (spread over the int32 range, so that they are
/// neither small nor consecutive), and sorts both: every key appears about @p duplication times
/// in B, each A row matches about that many B rows, and about e^-duplication of the rows of
/// either side match nothing. Deterministic in @p seed.
/// @throws std::invalid_argument for a duplication below 1 or a size above kMaxRows.
JoinInput make_input(std::size_t a_rows, std::size_t b_rows, double duplication, std::uint64_t seed);

/// The sequential sort-merge join (the CPU reference): walks both columns once, and for each run
/// of equal keys emits the outer product of the two runs, A-major. O(|A| + |B| + output).
/// @throws std::invalid_argument when the output would pass kMaxRows rows.
JoinPairs join_reference(const JoinInput& input, JoinKind kind);

/// The number of rows join_reference would emit, without emitting them (64-bit: it may pass
/// kMaxRows, which the chapter refuses before it allocates anything).
std::uint64_t join_row_count(const JoinInput& input, JoinKind kind);

/// The talk's columns of a join, as the GPU stages compute them. The objects of the
/// load-balancing search are A's rows, then B's rows; an object's count is the number of output
/// rows it emits.
struct JoinColumns {
  std::vector<std::int32_t> lower;    ///< per A row: lower bound of its key in B
  std::vector<std::int32_t> upper;    ///< per A row: upper bound of its key in B
  std::vector<std::int32_t> counts;   ///< per object: output rows
  std::vector<std::int32_t> offsets;  ///< exclusive scan of counts, one more entry: the total
  std::vector<std::int32_t> objects;  ///< per output row: its object (the LBS column)
  std::vector<std::int32_t> ranks;    ///< per output row: its rank in its object (RANK)
};

/// The columns of @p input joined as @p kind, by the vectorized sorted search and the
/// load-balancing search of common/ (their sequential versions).
JoinColumns join_columns(const JoinInput& input, JoinKind kind);

/// The output rows of @p columns: object o < |A| with count c and rank k gives (o, lower[o] + k),
/// or (o, -1) when its key matches nothing; object |A| + j gives (-1, j). This is what every
/// GPU stage's last phase does per row.
JoinPairs pairs_of(const JoinInput& input, const JoinColumns& columns);

}  // namespace stepwise::join
