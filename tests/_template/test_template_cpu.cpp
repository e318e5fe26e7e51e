// CPU tests of the template chapter: the reference, the options as the chapter's own spec parses them (no GPU is
// opened: every command line here stops at a refusal, --list, --check-options or --analyze), and --analyze, which
// reads each row's traits. Rows are picked by their traits, never by number or name.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "chapter.hpp"
#include "cli_checks.hpp"
#include "host/sizes.hpp"
#include "square.hpp"

using namespace stepwise;
using namespace stepwise::square;

namespace {

/// What the chapter's main does with @p arguments before the GPU (its parse, and --analyze's
/// analysis): its exit code and what it printed.
testing::ParseOutcome run(const std::vector<std::string>& arguments) {
  return testing::outcome_of(chapter(), arguments);
}

/// The line of @p text that names @p stage (as `  N  name` or `lib  name`), empty if none.
std::string line_of(const std::string& text, const SquareStage& stage) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line.find("  " + stage.name + " ") != std::string::npos) return line;
  return "";
}

/// The load instructions --analyze counts for @p stage at @p n: full vectors, then one per element of the tail.
std::uint64_t loads_of(const SquareStage& stage, std::uint64_t n) {
  const auto per_load = static_cast<std::uint64_t>(stage.traits.elements_per_load);
  return n / per_load + n % per_load;
}

}  // namespace

TEST_CASE("the reference squares modulo 2^32, as every kernel and the library functor do") {
  CHECK(square_wrapping(0) == 0);
  CHECK(square_wrapping(-3) == 9);
  CHECK(square_wrapping(46340) == 2147395600);   // the largest square below 2^31
  CHECK(square_wrapping(46341) == -2147479015);  // 2147488281 wraps
  CHECK(square_wrapping(65536) == 0);            // 2^32
  CHECK(square_wrapping(std::numeric_limits<std::int32_t>::max()) == 1);
  CHECK(square_wrapping(std::numeric_limits<std::int32_t>::min()) == 0);
  const std::vector<std::int32_t> input = {1, -1, 7, -46341, 123456789, std::numeric_limits<std::int32_t>::min()};
  const std::vector<std::int32_t> squares = square_on_cpu(input);
  REQUIRE(squares.size() == input.size());
  for (std::size_t i = 0; i < input.size(); ++i) {
    const std::int64_t wide = static_cast<std::int64_t>(input[i]) * input[i];
    CHECK(static_cast<std::uint32_t>(squares[i]) == static_cast<std::uint32_t>(static_cast<std::uint64_t>(wide)));
  }
  CHECK(square_on_cpu({}).empty());
}

TEST_CASE("the table: kernel rows numbered in order, then the library row; every row sets its traits") {
  const std::vector<SquareStage>& stages = square_stages();
  REQUIRE(stages.size() >= 3);
  int number = 0;
  int kernels = 0;
  for (const SquareStage& stage : stages) {
    CAPTURE(stage.name);
    if (stage.kind == RowKind::kernel) {
      ++kernels;
      CHECK(stage.number == ++number);
      CHECK(stage.traits.elements_per_load >= 1);
      CHECK_FALSE(stage.sweep.empty());
      CHECK(std::find(stage.sweep.begin(), stage.sweep.end(), stage.shape) != stage.sweep.end());
      CHECK(stage.traits.grid_stride == (stage.shape.blocks_per_sm != 0));
    } else {
      CHECK(stage.number == 0);
      CHECK(stage.traits.elements_per_load == 0);
    }
  }
  CHECK(kernels >= 2);
  CHECK(stages.back().kind == RowKind::library);
}

TEST_CASE("options: a bad --range exits 2 with one line naming it, before the GPU") {
  for (const std::vector<std::string>& arguments : std::vector<std::vector<std::string>>{
           {"--range", "-1"}, {"--range", "2147483648"}, {"--range", "abc"}, {"--range", "0x10"}, {"--range", ""}}) {
    CAPTURE(arguments.back());
    const testing::ParseOutcome outcome = run(arguments);
    CHECK(outcome.code == 2);
    CHECK(std::count(outcome.err.begin(), outcome.err.end(), '\n') == 1);
    CHECK(outcome.err.find("--range") != std::string::npos);
    CHECK(outcome.out.empty());
  }
  const testing::ParseOutcome beside_analyze = run({"--analyze", "--range", "5"});
  CHECK(beside_analyze.code == 2);
  CHECK(beside_analyze.err.find("--analyze excludes --range") != std::string::npos);
}

TEST_CASE("options: --range takes 0 to 2^31 - 1, checked without a GPU") {
  for (const std::string range : {"0", "1", "1000", "2147483647"}) {
    CAPTURE(range);
    const testing::ParseOutcome outcome = run({"--range", range, "--check-options"});
    CHECK(outcome.code == 0);
    CHECK(outcome.err.empty());
  }
  CHECK(Plan{}.range == std::numeric_limits<std::int32_t>::max());
}

TEST_CASE("options: --list shows every row of the table with its lesson, and the CPU reference") {
  const testing::ParseOutcome outcome = run({"--list"});
  CHECK(outcome.code == 0);
  for (const SquareStage& stage : square_stages()) {
    CAPTURE(stage.name);
    const std::string line = line_of(outcome.out, stage);
    CHECK(line.find(stage.kind == RowKind::library ? "lib  " : std::to_string(stage.number) + "  ") !=
          std::string::npos);
    CHECK(line.find(stage.lesson) != std::string::npos);
  }
  CHECK(outcome.out.find("cpu  reference") != std::string::npos);
}

TEST_CASE("options: --list-problems prints the size sweep's problems, one per line, for the tour") {
  const testing::ParseOutcome outcome = run({"--list-problems"});
  CHECK(outcome.code == 0);
  CHECK(outcome.err.empty());
  CHECK(outcome.out == sweep_problem_listing(chapter().problems));
  const std::vector<SweepProblem> listed = parse_sweep_problem_listing(outcome.out);
  REQUIRE(listed.size() == 1);
  CHECK(listed.front().label == "square int32");
  CHECK(run({"--list-problems", "--range", "-1"}).code == 2);  // the options are checked first
}

TEST_CASE("--analyze: one line per kernel row, its load width and load instructions from its traits") {
  for (const std::uint64_t n : {std::uint64_t{1}, std::uint64_t{5}, std::uint64_t{1000003}, std::uint64_t{1} << 26}) {
    CAPTURE(n);
    const testing::ParseOutcome outcome = run({"--analyze", "--n", std::to_string(n)});
    REQUIRE(outcome.code == 0);
    CHECK(outcome.err.empty());
    CHECK(outcome.out.find("n = " + format_grouped(static_cast<std::int64_t>(n)) + " int32") == 0);
    for (const SquareStage& stage : square_stages()) {
      CAPTURE(stage.name);
      const std::string line = line_of(outcome.out, stage);
      if (stage.traits.elements_per_load == 0) {
        CHECK(line.empty());  // the library chooses its own loads and grid
        continue;
      }
      std::istringstream words(line);
      int number = 0;
      std::string name;
      int bytes = 0;
      std::string loads;
      words >> number >> name >> bytes >> loads;
      CHECK(number == stage.number);
      CHECK(bytes == 4 * stage.traits.elements_per_load);
      CHECK(loads == format_grouped(static_cast<std::int64_t>(loads_of(stage, n))));
      CHECK(line.find(stage.traits.grid_stride ? "blocks/SM" : " blocks of ") != std::string::npos);
    }
  }
}

TEST_CASE("--analyze reads --n only: the common options of a run are refused beside it") {
  for (const std::vector<std::string>& arguments : std::vector<std::vector<std::string>>{
           {"--analyze", "--reps", "3"}, {"--analyze", "--sweep"}, {"--analyze", "--format", "json"}}) {
    CAPTURE(arguments[1]);
    const testing::ParseOutcome outcome = run(arguments);
    CHECK(outcome.code == 2);
    CHECK(std::count(outcome.err.begin(), outcome.err.end(), '\n') == 1);
  }
}
