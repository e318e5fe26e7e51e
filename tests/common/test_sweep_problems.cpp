// The problems of a size sweep as --list-problems prints them and the tour reads them back, and their labels as
// report file names.
#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "host/sweep_problems.hpp"

using stepwise::parse_sweep_problem_listing;
using stepwise::sweep_problem_listing;
using stepwise::sweep_problem_slug;
using stepwise::SweepProblem;

TEST_CASE("a problem's label as a file name: letters and digits, % as pct, one dash between words") {
  CHECK(sweep_problem_slug("if 1%") == "if-1pct");
  CHECK(sweep_problem_slug("flagged 99%") == "flagged-99pct");
  CHECK(sweep_problem_slug("keys int64") == "keys-int64");
  CHECK(sweep_problem_slug("  Stencil27 / float32 ") == "stencil27-float32");
  CHECK(sweep_problem_slug("65536 bins") == "65536-bins");
  CHECK(sweep_problem_slug("---") == "");
}

TEST_CASE("--list-problems' lines read back as they were declared, the limit included") {
  const std::vector<SweepProblem> declared = {
      {"copy", {}, 0},
      {"flagged 1%", {"--type", "int32", "--flags", "--selectivity", "1%"}, 0},
      {"inner", {"--join", "inner"}, (std::uint64_t{1} << 30) - 1},
  };
  const std::string listing = sweep_problem_listing(declared);
  CHECK(listing ==
        "copy\t\n"
        "flagged 1%\t--type int32 --flags --selectivity 1%\n"
        "inner\t--join inner\tmax_n=2^30-1\n");
  const std::vector<SweepProblem> read = parse_sweep_problem_listing(listing);
  REQUIRE(read.size() == declared.size());
  for (std::size_t i = 0; i < read.size(); ++i) {
    CAPTURE(i);
    CHECK(read[i].label == declared[i].label);
    CHECK(read[i].arguments == declared[i].arguments);
    CHECK(read[i].max_n == declared[i].max_n);
  }
  CHECK(parse_sweep_problem_listing("").empty());
}

TEST_CASE("a line not of the form LABEL<TAB>ARGUMENTS[<TAB>max_n=COUNT] is refused, naming it") {
  for (const std::string bad : {"no tab at all\n", "\t--type int32\n", "a\t--type  int32\n", "a\t--type \n",
                                "a\t--x\tlimit=5\n", "a\t--x\tmax_n=lots\n", "a\t--x\tmax_n=5\textra\n"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(parse_sweep_problem_listing(bad), doctest::Contains("--list-problems line '"),
                         std::invalid_argument);
  }
}
