// GPU tests of chapter 11: the chapter's own run, in this process, for every row of the table, both
// element types, on one GPU and on every visible GPU, at the sizes where chunk-bound bugs live
// (n = 1, G - 1, G, 1000, 4097, 2^20 + 17, 2^24 + 5 elements per GPU). Each run checks every GPU's
// output against the CPU reference, before and after timing, and every guard zone on every GPU; a
// failed row makes the run's exit code 1. The JSON report must hold every row at every size.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include <unistd.h>

#include "allreduce.hpp"
#include "chapter.hpp"
#include "host/data.hpp"
#include "host/multi_device.hpp"

using namespace stepwise;
using namespace stepwise::multigpu;

namespace {

/// Runs the chapter in this process with @p arguments (its parse, then its run on a session) and
/// returns its exit code and its JSON report.
int run_chapter_here(std::vector<std::string> arguments, nlohmann::json& report) {
  // One file per process: ctest -j runs this suite's cases as processes side by side.
  const std::string json_path = "test_multigpu_gpu_report_" + std::to_string(::getpid()) + ".json";
  arguments.insert(arguments.end(), {"--reps", "1", "--warmup", "0", "--json", json_path, "--output", "/dev/null"});
  ParsedChapter<Plan> parsed(chapter());
  const auto code = parsed.parse(arguments);
  REQUIRE_FALSE(code.has_value());
  Session session(parsed.cli());
  const int exit_code = parsed.chapter().run(session, parsed.plan());
  std::ifstream file(json_path);
  REQUIRE(file.good());
  report = nlohmann::json::parse(file);
  std::remove(json_path.c_str());
  return exit_code;
}

/// The element counts per GPU of the tests for a team of @p gpus.
std::vector<std::uint64_t> sizes_for(int gpus) {
  std::vector<std::uint64_t> sizes = {1, static_cast<std::uint64_t>(gpus), 1000, 4097, (1u << 20) + 17, (1u << 24) + 5};
  if (gpus > 1) sizes.push_back(static_cast<std::uint64_t>(gpus - 1));
  return sizes;
}

void check_every_row(int gpus, const char* type) {
  for (const std::uint64_t n : sizes_for(gpus)) {
    const std::uint64_t seed = fresh_seed();
    CAPTURE(gpus);
    CAPTURE(type);
    CAPTURE(n);
    CAPTURE(seed);
    nlohmann::json report;
    const int code = run_chapter_here(
        {"--gpus", std::to_string(gpus), "--type", type, "--n", std::to_string(n), "--seed", std::to_string(seed)},
        report);
    CHECK(code == 0);
    REQUIRE(report["rows"].is_array());
    std::size_t expected = allreduce_stages().size();
    for (const auto& note : report["notes"])
      if (note.get<std::string>().find("left out") != std::string::npos) {
        MESSAGE("a row was left out: " << note.get<std::string>());
        --expected;
      }
    CHECK(report["rows"].size() == expected);
    for (const auto& row : report["rows"]) {
      CAPTURE(row["name"].get<std::string>());
      CHECK(row["check"] == "PASS");
      CHECK(row["n_per_gpu"] == n);
    }
  }
}

}  // namespace

TEST_CASE("every row sums float32 within its tolerance on one GPU, at every edge size") {
  check_every_row(1, "float32");
}

TEST_CASE("every row sums int32 exactly on one GPU, at every edge size") { check_every_row(1, "int32"); }

TEST_CASE("every row sums float32 within its tolerance on every visible GPU, at every edge size") {
  const int gpus = visible_device_count();
  if (gpus < 2) MESSAGE("stepwise-skip: one GPU visible: the multi-GPU case is the one-GPU case");
  if (gpus < 2) return;
  check_every_row(gpus, "float32");
}

TEST_CASE("every row sums int32 exactly on every visible GPU, at every edge size") {
  const int gpus = visible_device_count();
  if (gpus < 2) MESSAGE("stepwise-skip: one GPU visible: the multi-GPU case is the one-GPU case");
  if (gpus < 2) return;
  check_every_row(gpus, "int32");
}

TEST_CASE("--gpus above the visible GPUs is refused before anything is allocated") {
  Plan plan;
  plan.gpus = visible_device_count() + 1;
  CHECK_THROWS_AS(require_gpus(plan, visible_device_count()), UsageError);
}
