// CPU tests of chapter 01's options: --block is refused when --stage leaves out stages 1-10,
// --analyze refuses the common options it does not read, and the host memory a run holds.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "chapter.hpp"
#include "cli_checks.hpp"

using namespace stepwise;
using namespace stepwise::reduction;

namespace {

/// The exit code main gives @p arguments before the GPU: 0 when they would run, 2 when refused.
int parse(const std::vector<std::string>& arguments) { return testing::exit_code_of(chapter(), arguments); }

}  // namespace

TEST_CASE("--block: refused when --stage selects none of stages 1-10, which it changes") {
  CHECK(parse({"--block", "512"}) == 0);
  CHECK(parse({"--block", "512", "--stage", "10"}) == 0);
  CHECK(parse({"--block", "512", "--stage", "interleaved-divergent", "--stage", "12"}) == 0);
  CHECK(parse({"--block", "512", "--stage", "11"}) == 2);
  CHECK(parse({"--block", "512", "--stage", "large-blocks", "--stage", "single-pass"}) == 2);
  CHECK(parse({"--block", "512", "--stage", "lib", "--stage", "cpu"}) == 2);
  CHECK(parse({"--stage", "11"}) == 0);
}

TEST_CASE("--analyze reads --format (and --block, --tree-block), and refuses every other common option") {
  CHECK(parse({"--analyze", "--format", "json", "--block", "128", "--tree-block", "8"}) == 0);
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
  Plan plan;
  CHECK(host_bytes(plan, 1000) == doctest::Approx(8000.0));
  plan.type = ElementType::float32;
  CHECK(host_bytes(plan, 1000) == doctest::Approx(4000.0));
}
