// The grader of exercise 08-1 (chapters/08_join/exercises/README.md): the student's LB, UB, COUNTS and SCAN
// columns, against the chapter's (inputs.hpp's join_columns: the sorted searches of
// common/algorithm/sorted_search.hpp the kernels run, what --analyze prints), for the four kinds of join.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "01_columns.hpp"
#include "exercise_checks.hpp"
#include "join_inputs.hpp"

using namespace stepwise::join;
using stepwise::testing::Differences;

namespace {

void compare_column(Differences& differences, const std::string& where, const char* what,
                    const std::vector<std::int32_t>& yours, const std::vector<std::int32_t>& model) {
  if (yours.size() != model.size()) {
    differences.add(where + ", " + what + ": " + std::to_string(yours.size()) + " entries, the model has " +
                    std::to_string(model.size()));
    return;
  }
  for (std::size_t i = 0; i < yours.size(); ++i)
    differences.compare(where + ", " + what + "[" + std::to_string(i) + "]", yours[i], model[i]);
}

void grade(JoinKind kind) {
  Differences differences;
  for (const grading::NamedInput& named : grading::join_inputs()) {
    const exercises::InputColumns yours = exercises::predicted_columns(named.input, kind);
    const JoinColumns model = join_columns(named.input, kind);
    const std::string where = named.name + ", " + to_string(kind) + " join";
    compare_column(differences, where, "LB", yours.lower, model.lower);
    compare_column(differences, where, "UB", yours.upper, model.upper);
    compare_column(differences, where, "COUNTS", yours.counts, model.counts);
    compare_column(differences, where, "SCAN", yours.offsets, model.offsets);
    if (!yours.offsets.empty())
      differences.compare(where + ", the row total", static_cast<std::uint64_t>(yours.offsets.back()),
                          join_row_count(named.input, kind));
  }
  differences.check();
}

}  // namespace

TEST_CASE("exercise 08-1: the inner join") { grade(JoinKind::inner); }
TEST_CASE("exercise 08-1: the left join") { grade(JoinKind::left); }
TEST_CASE("exercise 08-1: the right join") { grade(JoinKind::right); }
TEST_CASE("exercise 08-1: the outer join") { grade(JoinKind::outer); }
