// CPU tests of chapter 02's options: the options of the single-pass and reduce-then-scan stages
// are refused when --stage leaves those stages out, --vector-transpose needs a VT that is a
// multiple of 4, --analyze refuses what it does not read, and the host memory a run holds.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "options.hpp"
#include "scan.hpp"

using namespace stepwise;
using namespace stepwise::scan;

namespace {

/// Parses @p arguments as main does (the tile included); the exit code, or -1 to go on.
int parse(const std::vector<std::string>& arguments) {
  ChapterCli cli(ChapterInfo{"02", "scan", "test", 1 << 20, 0, "sequential"}, describe(scan_stages<WrappingAdd>()));
  ChapterOptions options;
  add_chapter_options(cli, options);
  if (const std::optional<int> code = cli.parse(arguments)) return *code;
  try {
    if (!options.analyze) single_pass_tile(cli, options);
  } catch (const UsageError&) {
    return 2;
  }
  return -1;
}

}  // namespace

TEST_CASE("the stages the options name: 7 is the single pass, 4-6 reduce then scan") {
  const std::vector<ScanStage<WrappingAdd>>& stages = scan_stages<WrappingAdd>();
  CHECK(stages[kSinglePassStage - 1].name == "single-pass");
  for (int number = kFirstReduceThenScanStage; number <= kLastReduceThenScanStage; ++number)
    CHECK(stages[static_cast<std::size_t>(number - 1)].name.rfind("rts-", 0) == 0);
}

TEST_CASE("options that tune some stages only are refused when --stage leaves those out") {
  for (const std::vector<std::string>& fine :
       std::vector<std::vector<std::string>>{{"--nt", "256", "--vt", "12", "--stage", "single-pass"},
                                             {"--backoff-ns", "64", "--stage", "7", "--stage", "1"},
                                             {"--first-poll-ns", "100", "--ticket-first"},
                                             {"--scalar-transpose", "--stage", "rts-vt8"},
                                             {"--vector-transpose", "--stage", "7"},
                                             {"--vector-transpose", "--nt", "256", "--vt", "12"},
                                             {"--analyze", "--nt", "256", "--vt", "16", "--vt", "15"}}) {
    CAPTURE(fine);
    CHECK(parse(fine) == -1);
  }
  for (const std::vector<std::string>& idle :
       std::vector<std::vector<std::string>>{{"--nt", "256", "--vt", "12", "--stage", "3"},
                                             {"--backoff-ns", "64", "--stage", "lib"},
                                             {"--first-poll-ns", "100", "--stage", "rts-vt7"},
                                             {"--ticket-first", "--stage", "cpu"},
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
  ChapterOptions options;
  CHECK(host_bytes(options, 1000) == doctest::Approx(12000.0));
  options.type = "float32";
  CHECK(host_bytes(options, 1000) == doctest::Approx(32000.0));
}
