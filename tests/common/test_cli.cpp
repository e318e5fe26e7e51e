#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "host/cli.hpp"

using namespace stepwise;

namespace {

ChapterInfo test_chapter() { return {"99", "test", "a chapter for tests", 1 << 20, 1, "a reference"}; }

StageInfo stage(int number, const std::string& name, const std::string& lesson, RowKind kind) {
  StageInfo info;
  info.number = number;
  info.name = name;
  info.lesson = lesson;
  info.kind = kind;
  return info;
}

std::vector<StageInfo> test_stages() {
  StageInfo better = stage(2, "better", "the second", RowKind::kernel);
  better.shape = {128, 7};
  better.sweep = shape_grid({128, 256}, {7, 8});
  return {stage(1, "naive", "the first", RowKind::kernel), better,
          stage(0, "LibraryCall", "the library", RowKind::library)};
}

}  // namespace

TEST_CASE("defaults apply when no option is given") {
  ChapterCli cli(test_chapter(), test_stages());
  CHECK_FALSE(cli.parse(std::vector<std::string>{}).has_value());
  const CommonOptions& options = cli.options();
  CHECK(options.n == (1u << 20));
  CHECK(options.stages.empty());
  CHECK(options.selects("naive"));
  CHECK(options.selects("cpu"));
  CHECK(options.format == Format::table);
  CHECK(options.reps == 20);
  CHECK_FALSE(options.warm_cache);
}

TEST_CASE("good values are parsed") {
  ChapterCli cli(test_chapter(), test_stages());
  const auto code = cli.parse({"--n",      "16Mi",   "--stage",  "2", "--stage",     "librarycall", "--stage",  "CPU",
                               "--reps",   "7",      "--warmup", "0", "--seed",      "42",          "--format", "json",
                               "--output", "x.json", "--device", "0", "--warm-cache"});
  REQUIRE_FALSE(code.has_value());
  const CommonOptions& options = cli.options();
  CHECK(options.n == (16u << 20));
  CHECK(options.stages == std::vector<std::string>{"better", "LibraryCall", "cpu"});
  CHECK(options.selects("better"));
  CHECK_FALSE(options.selects("naive"));
  CHECK(options.reps == 7);
  CHECK(options.warmup == 0);
  CHECK(options.seed == 42);
  CHECK(options.format == Format::json);
  CHECK(options.output == "x.json");
  CHECK(options.warm_cache);
}

TEST_CASE("stages are selected by number or by name, case-insensitively") {
  ChapterCli cli(test_chapter(), test_stages());
  REQUIRE_FALSE(cli.parse({"--stage", "NAIVE", "--stage", "2"}).has_value());
  CHECK(cli.options().stages == std::vector<std::string>{"naive", "better"});
}

TEST_CASE("--stage lib selects every library row") {
  ChapterCli cli(test_chapter(), test_stages());
  REQUIRE_FALSE(cli.parse({"--stage", "1", "--stage", "lib"}).has_value());
  CHECK(cli.options().stages == std::vector<std::string>{"naive", "LibraryCall"});
  CHECK_FALSE(cli.options().selects("better"));
}

TEST_CASE("--stage lib on a table without a library row is refused, not read as every row") {
  ChapterCli cli(test_chapter(), {stage(1, "naive", "the first", RowKind::kernel)});
  CHECK(cli.parse({"--stage", "lib"}) == std::optional<int>(2));
  ChapterCli both(test_chapter(), {stage(1, "naive", "the first", RowKind::kernel)});
  CHECK(both.parse({"--stage", "1", "--stage", "library"}) == std::optional<int>(2));
}

TEST_CASE("every bad value gives exit code 2") {
  const std::vector<std::vector<std::string>> bad = {
      {"--n", "abc"},
      {"--n", "0"},
      {"--n", "1.5M"},
      {"--n", "2^50"},
      {"--n"},
      {"--stage", "9"},
      {"--stage", "bogus"},
      {"--stage", "0"},
      {"--reps", "0"},
      {"--reps", "-3"},
      {"--reps", "many"},
      {"--warmup", "-1"},
      {"--format", "xml"},
      {"--device", "-1"},
      {"--seed", "x"},
      {"--no-such-option"},
      {"positional"},
      {"--seed", "-1"},
      {"--seed", "18446744073709551616"},
      {"--reps", "0x10"},
      {"--reps", "100001"},
      {"--device", "1x"},
      {"--warmup", "1e3"},
      {"--list=0"},
      {"--sweep=1"},
      {"--warm-cache", "--flush", "write"},
      {"--flush", "sometimes"},
      {"--stage", "99"},
      {"--output", "/no/such/directory/report.json"},
      {"--output", "/"},
  };
  for (const auto& arguments : bad) {
    CAPTURE(arguments.front());
    CAPTURE(arguments.back());
    ChapterCli cli(test_chapter(), test_stages());
    const auto code = cli.parse(arguments);
    REQUIRE(code.has_value());
    CHECK(*code == 2);
  }
}

TEST_CASE("numbers are decimal: 010 is ten, and the largest seed is accepted") {
  ChapterCli cli(test_chapter(), test_stages());
  REQUIRE_FALSE(cli.parse({"--reps", "010", "--warmup", "007", "--seed", "18446744073709551615"}).has_value());
  CHECK(cli.options().reps == 10);
  CHECK(cli.options().warmup == 7);
  CHECK(cli.options().seed == 18446744073709551615ull);
}

TEST_CASE("the command line is recorded, quoted for a shell") {
  ChapterCli cli(test_chapter(), test_stages());
  const char* argv[] = {"chapter_99_test", "--n", "2^20", "--stage", "a b"};
  CHECK(cli.parse(5, argv) == std::optional<int>(2));  // 'a b' is no stage, but the line is kept
  CHECK(cli.options().command == "chapter_99_test --n 2^20 --stage 'a b'");
}

TEST_CASE("--flush write, --warm-cache, --sweep and --compact are parsed") {
  ChapterCli write(test_chapter(), test_stages());
  REQUIRE_FALSE(write.parse({"--flush", "write", "--sweep", "--compact"}).has_value());
  CHECK(write.options().flush == "write");
  CHECK(write.options().sweep);
  CHECK(write.options().columns == Columns::compact);
  ChapterCli warm(test_chapter(), test_stages());
  REQUIRE_FALSE(warm.parse({"--warm-cache"}).has_value());
  CHECK(warm.options().flush == "none");
}

TEST_CASE("--output accepts a writable path and refuses a directory") {
  ChapterCli good(test_chapter(), test_stages());
  CHECK_FALSE(good.parse({"--output", "report.json"}).has_value());
  ChapterCli directory(test_chapter(), test_stages());
  CHECK(directory.parse({"--output", "."}) == std::optional<int>(2));
}

TEST_CASE("--check-options validates and stops, and --list-options names every option") {
  ChapterCli good(test_chapter(), test_stages());
  CHECK(good.parse({"--check-options", "--n", "2^20"}) == std::optional<int>(0));
  ChapterCli bad(test_chapter(), test_stages());
  CHECK(bad.parse({"--check-options", "--n", "x"}) == std::optional<int>(2));
  ChapterCli listing(test_chapter(), test_stages());
  const std::string options = listing.option_listing();
  CHECK(options.find("--n value\n") != std::string::npos);
  CHECK(options.find("--sweep flag\n") != std::string::npos);
  CHECK(options.find("--warm-cache flag\n") != std::string::npos);
}

TEST_CASE("a chapter's flags refuse a value too, and its modes exclude options") {
  ChapterCli cli(test_chapter(), test_stages());
  bool analyze = false;
  cli.add_flag("--analyze", analyze, "a mode")->excludes(cli.option("--stage"));
  CHECK(cli.parse({"--analyze=0"}) == std::optional<int>(2));
  ChapterCli both(test_chapter(), test_stages());
  both.add_flag("--analyze", analyze, "a mode")->excludes(both.option("--stage"));
  CHECK(both.parse({"--analyze", "--stage", "1"}) == std::optional<int>(2));
  ChapterCli alone(test_chapter(), test_stages());
  alone.add_flag("--analyze", analyze, "a mode")->excludes(alone.option("--stage"));
  CHECK_FALSE(alone.parse({"--analyze"}).has_value());
  CHECK(analyze);
}

TEST_CASE("--help shows the size default as the chapter writes it") {
  ChapterInfo chapter = test_chapter();
  chapter.default_n = std::uint64_t{1} << 28;
  ChapterCli cli(chapter, test_stages());
  CHECK(cli.app().help().find("2^28") != std::string::npos);
}

TEST_CASE("--help and --list stop with exit code 0") {
  ChapterCli help(test_chapter(), test_stages());
  CHECK(help.parse({"--help"}) == std::optional<int>(0));
  ChapterCli list(test_chapter(), test_stages());
  CHECK(list.parse({"--list"}) == std::optional<int>(0));
  const std::string listing = list.stage_listing();
  CHECK(listing.find("naive") != std::string::npos);
  CHECK(listing.find("the second") != std::string::npos);
  CHECK(listing.find("\n  lib  LibraryCall ") != std::string::npos);  // the row, not the word "library"
  CHECK(listing.find("cpu") != std::string::npos);
  CHECK(listing.find("128x7") != std::string::npos);
  CHECK(listing.find("--sweep: 4 shapes") != std::string::npos);
}

TEST_CASE("a chapter may accept n = 0") {
  ChapterInfo chapter = test_chapter();
  chapter.min_n = 0;
  ChapterCli cli(chapter, test_stages());
  REQUIRE_FALSE(cli.parse({"--n", "0"}).has_value());
  CHECK(cli.options().n == 0);
}

TEST_CASE("--analyze refuses every common option its analysis does not read") {
  bool analyze = false;
  const auto parse = [&](const std::vector<std::string>& arguments) {
    ChapterCli cli(test_chapter(), test_stages());
    cli.add_analyze_flag(analyze, "a mode", {"--n", "--format"});
    return cli.parse(arguments);
  };
  CHECK_FALSE(parse({"--analyze", "--n", "1000", "--format", "json"}).has_value());
  for (const std::vector<std::string>& idle : {std::vector<std::string>{"--reps", "5"},
                                               {"--warmup", "1"},
                                               {"--seed", "7"},
                                               {"--device", "0"},
                                               {"--compact"},
                                               {"--warm-cache"},
                                               {"--flush", "write"},
                                               {"--sweep"},
                                               {"--stage", "1"},
                                               {"--output", "x.json"}}) {
    std::vector<std::string> arguments = {"--analyze"};
    arguments.insert(arguments.end(), idle.begin(), idle.end());
    CAPTURE(idle.front());
    CHECK(parse(arguments) == std::optional<int>(2));
  }
  CHECK_FALSE(parse({"--reps", "5", "--seed", "7"}).has_value());
}

TEST_CASE("every flag, common or the chapter's, refuses any =value with one line naming it") {
  bool analyze = false;
  for (const std::string flag :
       {"--list", "--compact", "--warm-cache", "--sweep", "--check-options", "--list-options", "--help", "--analyze"}) {
    for (const std::string value : {"true", "false", "1", "0", "yes", ""}) {
      const std::string argument = flag + "=" + value;
      CAPTURE(argument);
      ChapterCli cli(test_chapter(), test_stages());
      cli.add_flag("--analyze", analyze, "a mode");
      std::ostringstream errors;
      std::streambuf* const previous = std::cerr.rdbuf(errors.rdbuf());
      const auto code = cli.parse({argument});
      std::cerr.rdbuf(previous);
      CHECK(code == std::optional<int>(2));
      CHECK(errors.str() ==
            "stepwise: error: " + shell_quote(argument) + ": " + flag + " is a flag and takes no value\n");
    }
  }
  CHECK_FALSE(analyze);
  CLI::App app("a program with its own options");
  bool dry_run = false;
  std::string output;
  app.add_flag("--dry-run", dry_run, "a flag");
  app.add_option("--output", output, "a value");
  CHECK_THROWS_AS(check_option_syntax(app, {"--dry-run=true"}), UsageError);
  CHECK_THROWS_WITH_AS(check_option_syntax(app, {"--output="}), "--output '': the value is empty", UsageError);
  CHECK_NOTHROW(check_option_syntax(app, {"--dry-run", "--output=a=b", "--", "--dry-run=1"}));
}

/// The exit code @p cli asks for after parsing @p arguments, and what it printed on stderr.
std::pair<std::optional<int>, std::string> parse_with_stderr(ChapterCli& cli,
                                                             const std::vector<std::string>& arguments) {
  std::ostringstream errors;
  std::streambuf* const previous = std::cerr.rdbuf(errors.rdbuf());
  const auto code = cli.parse(arguments);
  std::cerr.rdbuf(previous);
  return {code, errors.str()};
}

TEST_CASE("every option refuses an empty value, the common ones and the chapter's") {
  for (const std::string option :
       {"--n", "--stage", "--reps", "--warmup", "--seed", "--format", "--output", "--device", "--flush", "--matrix"}) {
    for (const std::vector<std::string>& arguments :
         {std::vector<std::string>{option, ""}, std::vector<std::string>{option + "="}}) {
      CAPTURE(arguments.front());
      ChapterCli cli(test_chapter(), test_stages());
      std::string matrix;
      cli.app().add_option("--matrix", matrix, "a chapter's option");
      const auto [code, message] = parse_with_stderr(cli, arguments);
      CHECK(code == std::optional<int>(2));
      CHECK(std::count(message.begin(), message.end(), '\n') == 1);
    }
  }
  ChapterCli output(test_chapter(), test_stages());
  std::ostringstream errors;
  std::streambuf* const previous = std::cerr.rdbuf(errors.rdbuf());
  CHECK(output.parse({"--output", "", "--list"}) == std::optional<int>(2));
  std::cerr.rdbuf(previous);
  CHECK(errors.str() == "stepwise: error: --output '': the value is empty\n");
}

TEST_CASE("arguments nobody takes are named in the order they were typed, with every CLI11 release") {
  ChapterCli cli(test_chapter(), test_stages());
  std::ostringstream errors;
  std::streambuf* const previous = std::cerr.rdbuf(errors.rdbuf());
  const auto code = cli.parse({"--type", "float32", "--n", "10", "a b"});
  std::cerr.rdbuf(previous);
  CHECK(code == std::optional<int>(2));
  CHECK(errors.str() ==
        "stepwise: error: The following arguments were not expected: --type float32 'a b' (see --help)\n");
}

TEST_CASE("stage numbers as messages name them: a run of three or more as a range") {
  CHECK(describe_stage_numbers({7}) == "stage 7");
  CHECK(describe_stage_numbers({6, 7}) == "stages 6 and 7");
  CHECK(describe_stage_numbers({1, 3, 8}) == "stages 1, 3 and 8");
  CHECK(describe_stage_numbers({1, 2, 3, 4, 5, 6, 7, 8, 9, 10}) == "stages 1-10");
  CHECK(describe_stage_numbers({1, 2, 3, 8}) == "stages 1-3 and 8");
  CHECK(describe_stage_numbers({1, 2, 5, 6, 7}) == "stages 1, 2 and 5-7");
  CHECK(describe_stage_numbers({1, 3, 5, 7}) == "stages 1, 3, 5 and 7");
}

namespace {

/// test_stages() with stage 2's variant rows after it, as describe() lists a Stage's variants.
std::vector<StageInfo> stages_with_variants() {
  std::vector<StageInfo> stages = test_stages();
  stages[1].options = {"--block"};
  StageInfo packed = stages[1];
  packed.variant = "packed flags";
  packed.lesson = "flag bytes unpacked";
  packed.sweep.clear();
  StageInfo tile = packed;
  tile.variant = "tile 128x7";
  tile.lesson = "the tile of stage 1";
  tile.shape = {256, 4};
  stages.insert(stages.begin() + 2, {packed, tile});
  return stages;
}

/// The exit code and what stderr got of parsing @p arguments against stages_with_variants().
std::pair<std::optional<int>, std::string> parse_variants(const std::vector<std::string>& arguments,
                                                          bool with_variants = true) {
  ChapterCli cli(test_chapter(), with_variants ? stages_with_variants() : test_stages());
  std::string block;
  cli.app().add_option("--block", block, "a chapter option stage 2 reads");
  return parse_with_stderr(cli, arguments);
}

}  // namespace

TEST_CASE("--variants runs the variant rows of the stages --stage selects") {
  ChapterCli cli(test_chapter(), stages_with_variants());
  REQUIRE_FALSE(cli.parse({"--variants", "--stage", "2"}).has_value());
  CHECK(cli.options().variants);
  CHECK(cli.options().stages == std::vector<std::string>{"better"});  // the stage selects its variants
  ChapterCli all(test_chapter(), stages_with_variants());
  REQUIRE_FALSE(all.parse({"--variants"}).has_value());
  CHECK(all.options().variants);
  ChapterCli none(test_chapter(), stages_with_variants());
  REQUIRE_FALSE(none.parse(std::vector<std::string>{}).has_value());
  CHECK_FALSE(none.options().variants);
  ChapterCli by_number(test_chapter(), stages_with_variants());
  REQUIRE_FALSE(by_number.parse({"--stage", "2"}).has_value());  // the stage's number is the stage, not a variant
  CHECK(by_number.options().stages == std::vector<std::string>{"better"});
}

TEST_CASE("--variants is refused with one line where it would run no variant row, and beside --sweep") {
  const auto [left_out, left_out_message] = parse_variants({"--variants", "--stage", "1", "--stage", "lib"});
  CHECK(left_out == std::optional<int>(2));
  CHECK(left_out_message ==
        "stepwise: error: --variants: only stage 2 of this table has variant rows, which --stage leaves out\n");
  const auto [absent, absent_message] = parse_variants({"--variants"}, false);
  CHECK(absent == std::optional<int>(2));
  CHECK(absent_message == "stepwise: error: --variants: no stage of this table has variant rows\n");
  const auto [sweep, sweep_message] = parse_variants({"--variants", "--sweep"});
  CHECK(sweep == std::optional<int>(2));
  CHECK(std::count(sweep_message.begin(), sweep_message.end(), '\n') == 1);
  CHECK(parse_variants({"--variants=1"}).first == std::optional<int>(2));
  CHECK(parse_variants({"--variants", "--check-options"}).first == std::optional<int>(0));
  CHECK(parse_variants({"--variants", "--stage", "1", "--check-options"}).first == std::optional<int>(2));
}

TEST_CASE("a variant row counts once in messages: its number is its stage's") {
  const auto [code, message] = parse_variants({"--block", "64", "--stage", "1"});
  CHECK(code == std::optional<int>(2));
  CHECK(message == "stepwise: error: --block: it changes stage 2 only, which --stage leaves out\n");
}

TEST_CASE("--list shows each variant row after its stage as `2 - change`, and --help shows --variants") {
  ChapterCli cli(test_chapter(), stages_with_variants());
  const std::string listing = cli.stage_listing();
  const std::size_t stage = listing.find("\n    2  better ");
  const std::size_t packed = listing.find("\n  2 -  packed flags ");
  const std::size_t tile = listing.find("\n  2 -  tile 128x7 ");
  const std::size_t library = listing.find("\n  lib  LibraryCall ");
  CHECK(stage != std::string::npos);
  CHECK(packed != std::string::npos);
  CHECK(tile != std::string::npos);
  CHECK(stage < packed);
  CHECK(packed < tile);
  CHECK(tile < library);
  CHECK(listing.find("flag bytes unpacked [--variants]") != std::string::npos);
  CHECK(listing.find("256x4") != std::string::npos);
  CHECK(cli.app().help().find("--variants") != std::string::npos);
  CHECK(cli.option_listing().find("--variants flag\n") != std::string::npos);
  ChapterCli plain(test_chapter(), test_stages());
  CHECK(plain.stage_listing().find("\n    1  naive ") != std::string::npos);  // the same columns without variants
}

TEST_CASE("--analyze refuses --variants: it reads no row") {
  bool analyze = false;
  ChapterCli cli(test_chapter(), stages_with_variants());
  cli.add_analyze_flag(analyze, "a mode", {"--n"});
  CHECK(cli.parse({"--analyze", "--variants"}) == std::optional<int>(2));
}
