// The inputs the chapter 06 exercise graders try: the chapter's own draws (inputs.hpp's is_kept) at
// the selectivities and patterns of the lecture's tables and at the edges (nothing kept, everything
// kept, long runs), and the stage table as --analyze reads it (names, default shapes, cost models).
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "compaction.hpp"
#include "inputs.hpp"
#include "plan.hpp"

namespace stepwise::compaction::grading {

/// One input: the plan that draws it, its size and seed, and what to call it in a message.
struct DrawnInput {
  std::string name;
  Plan plan;
  std::uint64_t n = 0;
  std::uint64_t seed = 0;
};

/// The inputs every chapter 06 grader runs.
inline std::vector<DrawnInput> drawn_inputs() {
  std::vector<DrawnInput> inputs;
  const auto add = [&](double selectivity, const std::string& pattern, std::uint64_t n, std::uint64_t seed) {
    DrawnInput input;
    input.plan.selectivity = selectivity;
    input.plan.pattern = parse_pattern(pattern);
    input.n = n;
    input.seed = seed;
    std::ostringstream name;
    name << selectivity * 100.0 << " % kept (" << pattern << "), n = " << n << ", seed " << seed;
    input.name = name.str();
    inputs.push_back(input);
  };
  for (std::uint64_t n : {std::uint64_t{1}, std::uint64_t{31}, std::uint64_t{33}, std::uint64_t{2049}}) {
    add(0.5, "random", n, 1);
    add(1.0, "random", n, 1);
  }
  for (double selectivity : {0.0, 0.01, 0.1, 0.5, 0.99, 1.0}) add(selectivity, "random", 100003, 20261121);
  add(0.5, "runs:7", 100003, 3);
  add(0.5, "runs:64", 65536, 4);
  add(0.5, "runs:1000", 100003, 5);
  add(0.01, "runs:700", 262147, 6);
  add(0.5, "random", std::uint64_t{1} << 20, 20261121);
  return inputs;
}

/// Which elements of @p input are kept: element i where kept[i].
inline std::vector<bool> kept_flags(const DrawnInput& input) {
  std::vector<bool> kept(input.n);
  for (std::uint64_t i = 0; i < input.n; ++i)
    kept[i] = is_kept(input.seed, i, input.plan.selectivity, input.plan.pattern);
  return kept;
}

/// The predicate table's kernel rows as --analyze reads them, in the order stage_costs returns their costs.
inline std::vector<SelectRow> kernel_rows() {
  std::vector<SelectRow> rows;
  for (const SelectRow& row : facts_of(select_stages<std::int32_t>(Form::predicate)))
    if (row.kind == RowKind::kernel) rows.push_back(row);
  return rows;
}

/// "stage 3 (block-aggregated, 256x8)", "stage 1 (atomic, 256 thr)".
inline std::string row_name(const SelectRow& row) {
  const std::string shape = std::to_string(row.shape.threads) +
                            (row.shape.items > 0 ? "x" + std::to_string(row.shape.items) : std::string(" thr"));
  return "stage " + std::to_string(row.number) + " (" + row.name + ", " + shape + ")";
}

}  // namespace stepwise::compaction::grading
