// CPU tests of chapter 02's options: the options of the single-pass and reduce-then-scan stages
// are refused when --stage leaves those stages out, --vector-transpose needs a VT that is a
// multiple of 4, --analyze refuses what it does not read, and the host memory a run holds.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "chapter.hpp"
#include "cli_checks.hpp"

using namespace stepwise;
using namespace stepwise::scan;

namespace {

/// The exit code main gives @p arguments before the GPU (the tile included): 0 when they would
/// run, 2 when refused.
int parse(const std::vector<std::string>& arguments) { return testing::exit_code_of(chapter(), arguments); }

}  // namespace

TEST_CASE("the options that change a stage are those of the single pass and the reduce-then-scan stages") {
  const auto lists = [](const StageInfo& stage, const std::string& option) {
    return std::find(stage.options.begin(), stage.options.end(), option) != stage.options.end();
  };
  int tiled = 0, transposed = 0;
  for (const ScanStage<WrappingAdd>& stage : scan_stages<WrappingAdd>()) {
    CAPTURE(stage.name);
    // --nt and --vt set the shape of the one stage that compiles several tiles, its sweep's.
    CHECK(lists(stage, "--nt") == (stage.sweep.size() > 1));
    for (const char* option : {"--vt", "--backoff-ns", "--first-poll-ns", "--speculative-load", "--vector-transpose"})
      CHECK(lists(stage, option) == lists(stage, "--nt"));
    tiled += lists(stage, "--nt") ? 1 : 0;
    transposed += lists(stage, "--scalar-transpose") ? 1 : 0;
    CHECK_FALSE((lists(stage, "--scalar-transpose") && lists(stage, "--nt")));
  }
  CHECK(tiled == 1);
  CHECK(transposed == 3);
}

TEST_CASE("options that tune some stages only are refused when --stage leaves those out") {
  for (const std::vector<std::string>& fine :
       std::vector<std::vector<std::string>>{{"--nt", "256", "--vt", "12", "--stage", "single-pass"},
                                             {"--backoff-ns", "64", "--stage", "7", "--stage", "1"},
                                             {"--first-poll-ns", "100", "--speculative-load"},
                                             {"--scalar-transpose", "--stage", "rts-vt8"},
                                             {"--vector-transpose", "--stage", "7"},
                                             {"--vector-transpose", "--nt", "256", "--vt", "12"},
                                             {"--analyze", "--nt", "256", "--vt", "16", "--vt", "15"}}) {
    CAPTURE(fine);
    CHECK(parse(fine) == 0);
  }
  for (const std::vector<std::string>& idle :
       std::vector<std::vector<std::string>>{{"--nt", "256", "--vt", "12", "--stage", "3"},
                                             {"--backoff-ns", "64", "--stage", "lib"},
                                             {"--first-poll-ns", "100", "--stage", "rts-vt7"},
                                             {"--speculative-load", "--stage", "cpu"},
                                             {"--vector-transpose", "--stage", "6"},
                                             {"--scalar-transpose", "--stage", "7", "--stage", "3"},
                                             {"--vector-transpose", "--nt", "128", "--vt", "7"},
                                             {"--analyze", "--first-poll-ns", "100"},
                                             {"--analyze", "--seed", "1"},
                                             {"--analyze", "--reps", "3"},
                                             {"--analyze", "--device", "0"},
                                             {"--analyze", "--warm-cache"},
                                             {"--type", ""},
                                             {"--scan", ""}}) {
    CAPTURE(idle);
    CHECK(parse(idle) == 2);
  }
}

TEST_CASE("the host memory of a run: int32 12 bytes per element, float32 32") {
  Plan plan;
  CHECK(host_bytes(plan, 1000) == doctest::Approx(12000.0));
  plan.type = ElementType::float32;
  CHECK(host_bytes(plan, 1000) == doctest::Approx(32000.0));
}
