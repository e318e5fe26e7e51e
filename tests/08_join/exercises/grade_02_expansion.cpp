// The grader of exercise 08-2 (chapters/08_join/exercises/README.md): the student's load-balancing search,
// against the chapter's (common/algorithm/load_balance.hpp's load_balance_search, through inputs.hpp's
// join_columns: the LBS and RANK columns --analyze prints), and the pairs they give (pairs_of) against the
// sequential sort-merge join every stage is checked against.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "02_expansion.hpp"
#include "algorithm/load_balance.hpp"
#include "exercise_checks.hpp"
#include "join_inputs.hpp"

using namespace stepwise::join;
using stepwise::testing::Differences;

namespace {

/// Your columns for @p offsets against @p objects and @p ranks, row by row.
void compare(Differences& differences, const std::string& where, const exercises::OutputColumns& yours,
             const std::vector<std::int32_t>& objects, const std::vector<std::int32_t>& ranks) {
  if (yours.objects.size() != objects.size() || yours.ranks.size() != ranks.size()) {
    differences.add(where + ": " + std::to_string(yours.objects.size()) + " LBS and " +
                    std::to_string(yours.ranks.size()) + " RANK entries, the join has " +
                    std::to_string(objects.size()) + " output rows");
    return;
  }
  for (std::size_t r = 0; r < objects.size(); ++r) {
    differences.compare(where + ", output row " + std::to_string(r) + ", LBS", yours.objects[r], objects[r]);
    differences.compare(where + ", output row " + std::to_string(r) + ", RANK", yours.ranks[r], ranks[r]);
  }
}

}  // namespace

TEST_CASE("exercise 08-2: every join of every input, and the pairs your columns give") {
  Differences differences;
  for (const grading::NamedInput& named : grading::join_inputs()) {
    for (JoinKind kind : grading::join_kinds()) {
      JoinColumns columns = join_columns(named.input, kind);
      const std::string where = named.name + ", " + to_string(kind) + " join";
      const exercises::OutputColumns yours = exercises::expand(columns.offsets);
      compare(differences, where, yours, columns.objects, columns.ranks);
      if (yours.objects.size() != columns.objects.size() || yours.ranks.size() != columns.ranks.size()) continue;
      columns.objects = yours.objects;
      columns.ranks = yours.ranks;
      const JoinPairs pairs = pairs_of(named.input, columns);
      const JoinPairs reference = join_reference(named.input, kind);
      for (std::size_t r = 0; r < reference.size(); ++r) {
        differences.compare(where + ", the pair of output row " + std::to_string(r) + ", A row", pairs.a_index[r],
                            reference.a_index[r]);
        differences.compare(where + ", the pair of output row " + std::to_string(r) + ", B row", pairs.b_index[r],
                            reference.b_index[r]);
      }
    }
  }
  differences.check();
}

TEST_CASE("exercise 08-2: counts with leading, trailing and repeated zeros, one heavy object, no rows") {
  std::mt19937 random(20261126);
  Differences differences;
  for (int trial = 0; trial < 300; ++trial) {
    const int objects = std::uniform_int_distribution<int>(1, 40)(random);
    std::vector<std::int32_t> offsets;
    std::int32_t total = 0;
    for (int o = 0; o < objects; ++o) {
      offsets.push_back(total);
      const int kind = std::uniform_int_distribution<int>(0, 9)(random);  // zeros often, a heavy one sometimes
      total += kind < 4 ? 0 : (kind < 9 ? std::uniform_int_distribution<int>(1, 5)(random) : 200);
    }
    offsets.push_back(total);
    std::vector<std::int32_t> objects_model(static_cast<std::size_t>(total)),
        ranks_model(static_cast<std::size_t>(total));
    stepwise::load_balance_search(offsets.data(), objects, total, objects_model.data(), ranks_model.data());
    compare(differences,
            "random trial " + std::to_string(trial) + " (" + std::to_string(objects) + " objects, " +
                std::to_string(total) + " rows)",
            exercises::expand(offsets), objects_model, ranks_model);
  }
  differences.check();
}
