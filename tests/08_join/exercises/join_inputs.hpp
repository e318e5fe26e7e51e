// The inputs the chapter 08 exercise graders try: the talk's two joins --analyze prints, the chapter's own
// draws (inputs.hpp's make_input) at duplications 1 to 64 and uneven sizes, and the edges: empty sides,
// every key equal, A wholly before B, no key in common.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis.hpp"
#include "inputs.hpp"

namespace stepwise::join::grading {

/// Two sorted key columns and what to call them in a message.
struct NamedInput {
  std::string name;
  JoinInput input;
};

/// The inputs every chapter 08 grader runs, the talk's first.
inline std::vector<NamedInput> join_inputs() {
  std::vector<NamedInput> inputs;
  inputs.push_back({"the talk's inner-join walk-through", talk_inner_input()});
  inputs.push_back({"the talk's outer-join table", talk_outer_input()});
  inputs.push_back({"A empty", {{}, {1, 2, 2, 3}}});
  inputs.push_back({"B empty", {{1, 1, 4}, {}}});
  inputs.push_back({"both empty", {{}, {}}});
  inputs.push_back({"every key equal", {{7, 7, 7}, {7, 7, 7, 7, 7}}});
  inputs.push_back({"A wholly before B", {{1, 2, 3}, {4, 5, 6, 7}}});
  inputs.push_back({"interleaved, no key in common", {{1, 3, 5, 7}, {0, 2, 4, 6, 8}}});
  inputs.push_back({"one row each, equal", {{-5}, {-5}}});
  std::uint64_t seed = 20261121;
  for (double dup : {1.0, 4.0, 64.0}) {
    for (std::size_t a_rows : {std::size_t{37}, std::size_t{1000}}) {
      for (std::size_t b_rows : {std::size_t{1}, std::size_t{129}, std::size_t{1000}}) {
        inputs.push_back({"drawn: |A| = " + std::to_string(a_rows) + ", |B| = " + std::to_string(b_rows) + ", dup " +
                              std::to_string(static_cast<int>(dup)),
                          make_input(a_rows, b_rows, dup, seed++)});
      }
    }
  }
  return inputs;
}

/// The four kinds of join.
inline std::vector<JoinKind> join_kinds() {
  return {JoinKind::inner, JoinKind::left, JoinKind::right, JoinKind::outer};
}

}  // namespace stepwise::join::grading
