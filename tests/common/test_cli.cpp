#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cli.hpp"

using namespace stepwise;

namespace {

ChapterInfo test_chapter() { return {"99", "test", "a chapter for tests", 1 << 20, 1, "a reference"}; }

std::vector<StageInfo> test_stages() {
  return {{1, "naive", "the first", RowKind::kernel},
          {2, "better", "the second", RowKind::kernel},
          {0, "LibraryCall", "the library", RowKind::library}};
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

TEST_CASE("every bad value gives exit code 2") {
  const std::vector<std::vector<std::string>> bad = {
      {"--n", "abc"},       {"--n", "0"},         {"--n", "1.5M"},     {"--n", "2^50"},    {"--n"},
      {"--stage", "9"},     {"--stage", "bogus"}, {"--stage", "0"},    {"--reps", "0"},    {"--reps", "-3"},
      {"--reps", "many"},   {"--warmup", "-1"},   {"--format", "xml"}, {"--device", "-1"}, {"--seed", "x"},
      {"--no-such-option"}, {"positional"},
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

TEST_CASE("--help and --list stop with exit code 0") {
  ChapterCli help(test_chapter(), test_stages());
  CHECK(help.parse({"--help"}) == std::optional<int>(0));
  ChapterCli list(test_chapter(), test_stages());
  CHECK(list.parse({"--list"}) == std::optional<int>(0));
  const std::string listing = list.stage_listing();
  CHECK(listing.find("naive") != std::string::npos);
  CHECK(listing.find("the second") != std::string::npos);
  CHECK(listing.find("lib") != std::string::npos);
  CHECK(listing.find("cpu") != std::string::npos);
}

TEST_CASE("a chapter may accept n = 0") {
  ChapterInfo chapter = test_chapter();
  chapter.min_n = 0;
  ChapterCli cli(chapter, test_stages());
  REQUIRE_FALSE(cli.parse({"--n", "0"}).has_value());
  CHECK(cli.options().n == 0);
}
