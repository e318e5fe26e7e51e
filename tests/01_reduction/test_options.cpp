// CPU tests of chapter 01's options: --block is refused when --stage leaves out stages 1-10,
// --analyze refuses the common options it does not read, and the host memory a run holds.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "options.hpp"
#include "reduction.hpp"

using namespace stepwise;
using namespace stepwise::reduction;

namespace {

/// Parses @p arguments with the chapter's table and options; the exit code parse() gave, or -1.
int parse(const std::vector<std::string>& arguments) {
  ChapterCli cli(ChapterInfo{"01", "reduction", "test", 1 << 20, 1, "serial"},
                 describe(reduce_stages<std::uint32_t>()));
  ChapterOptions options;
  add_chapter_options(cli, options);
  const std::optional<int> code = cli.parse(arguments);
  return code ? *code : -1;
}

}  // namespace

TEST_CASE("--block: refused when --stage selects none of stages 1-10, which it changes") {
  CHECK(parse({"--block", "512"}) == -1);
  CHECK(parse({"--block", "512", "--stage", "10"}) == -1);
  CHECK(parse({"--block", "512", "--stage", "interleaved-divergent", "--stage", "12"}) == -1);
  CHECK(parse({"--block", "512", "--stage", "11"}) == 2);
  CHECK(parse({"--block", "512", "--stage", "large-blocks", "--stage", "single-pass"}) == 2);
  CHECK(parse({"--block", "512", "--stage", "lib", "--stage", "cpu"}) == 2);
  CHECK(parse({"--stage", "11"}) == -1);
}

TEST_CASE("--analyze reads --format (and --block, --tree-block), and refuses every other common option") {
  CHECK(parse({"--analyze", "--format", "json", "--block", "128", "--tree-block", "8"}) == -1);
  for (const std::vector<std::string>& idle : std::vector<std::vector<std::string>>{{"--n", "1000"},
                                                                                    {"--seed", "1"},
                                                                                    {"--reps", "3"},
                                                                                    {"--warmup", "1"},
                                                                                    {"--device", "0"},
                                                                                    {"--compact"},
                                                                                    {"--warm-cache"},
                                                                                    {"--flush", "write"},
                                                                                    {"--output", "x.json"},
                                                                                    {"--stage", "1"},
                                                                                    {"--sweep"},
                                                                                    {"--type", "float32"}}) {
    std::vector<std::string> arguments = {"--analyze"};
    arguments.insert(arguments.end(), idle.begin(), idle.end());
    CAPTURE(idle.front());
    CHECK(parse(arguments) == 2);
  }
  CHECK(parse({"--type", ""}) == 2);
}

TEST_CASE("the host memory of a run: the input, and for int32 its uint32 copy") {
  ChapterOptions options;
  CHECK(host_bytes(options, 1000) == doctest::Approx(8000.0));
  options.type = "float32";
  CHECK(host_bytes(options, 1000) == doctest::Approx(4000.0));
}
