// CPU tests of chapter 07: the workloads' work (one loop gives what a branch per path gives;
// a mutation flips as many bits as it says), the inputs (the share of mixed warps is what was
// asked, 0 % gives no divergent warp), the arrangements the remaps give the elements, the warp
// costs --analyze reports (worked by hand), its JSON form and the paper's path-vector example, the
// host remap of stage 6, stage 7's slots, stage 8's decision, and the option parsers.
#include <doctest/doctest.h>

#include <algorithm>
#include <bitset>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis.hpp"
#include "chapter.hpp"
#include "cli_checks.hpp"
#include "host/sizes.hpp"
#include "inputs.hpp"
#include "options.hpp"

using namespace stepwise;
using namespace stepwise::divergence;

namespace {

Synthetic synthetic(std::vector<unsigned> rounds) {
  Plan plan;
  plan.paths = static_cast<unsigned>(rounds.size());
  plan.rounds = std::move(rounds);
  return synthetic_work(plan);
}

template <unsigned P>
std::uint32_t branch_form(std::uint32_t x, unsigned rounds) {
  return (mix_rounds<P>(x, rounds) & ~Synthetic::kPathMask) | P;
}

bool is_permutation_of_all(std::vector<std::uint32_t> order, std::size_t n) {
  std::sort(order.begin(), order.end());
  for (std::size_t i = 0; i < order.size(); ++i)
    if (order[i] != i) return false;
  return order.size() == n;
}

}  // namespace

TEST_CASE("the synthetic work as one loop equals the work as a branch per path") {
  const Synthetic work = synthetic({3, 1, 4, 1, 5, 9, 2, 6});
  for (std::uint32_t x : {0x12345678u, 0xFFFFFFF8u, 0x00000010u, 0xDEADBEE8u}) {
    CHECK(work.apply(x | 0, 0, 0, 0) == branch_form<0>(x | 0, 3));
    CHECK(work.apply(x | 1, 1, 0, 0) == branch_form<1>(x | 1, 1));
    CHECK(work.apply(x | 2, 2, 0, 0) == branch_form<2>(x | 2, 4));
    CHECK(work.apply(x | 3, 3, 0, 0) == branch_form<3>(x | 3, 1));
    CHECK(work.apply(x | 4, 4, 0, 0) == branch_form<4>(x | 4, 5));
    CHECK(work.apply(x | 5, 5, 0, 0) == branch_form<5>(x | 5, 9));
    CHECK(work.apply(x | 6, 6, 0, 0) == branch_form<6>(x | 6, 2));
    CHECK(work.apply(x | 7, 7, 0, 0) == branch_form<7>(x | 7, 6));
  }
}

TEST_CASE("the synthetic work keeps each element's path and changes its other bits") {
  const Synthetic work = synthetic({64, 128, 256, 512});
  const std::vector<std::uint32_t> input = synthetic_input(4096, 4, 1.0, 17);
  const std::vector<std::uint32_t> output = run_reference(work, input, 1);
  std::size_t changed = 0;
  for (std::size_t i = 0; i < input.size(); ++i) {
    CHECK(work.path(output[i], i, 0) == work.path(input[i], i, 0));
    changed += output[i] != input[i] ? 1 : 0;
  }
  CHECK(changed > 4000);
}

TEST_CASE("a mutation flips bits one at a time: the genome's distance has the parity of its rounds") {
  Plan plan;
  plan.workload = WorkloadKind::mutation;
  for (unsigned rounds : {1u, 2u, 7u, 64u}) {
    plan.mutation_rounds = rounds;
    const Mutation work = mutation_work(plan, 5);
    const std::vector<Genome> population = random_population(256, 9);
    for (std::size_t i = 0; i < population.size(); ++i) {
      for (unsigned p : {0u, 1u}) {
        const Genome after = work.apply(population[i], p, i, 3);
        std::size_t distance = 0;
        for (int w = 0; w < 4; ++w) distance += std::bitset<32>(after.word[w] ^ population[i].word[w]).count();
        const unsigned flips = p == 0 ? 1u : rounds;
        CHECK(distance % 2 == flips % 2);
        CHECK(distance <= flips);
      }
    }
  }
}

TEST_CASE("the mutation rate is the share of individuals on the mutating path, drawn anew each generation") {
  Plan plan;
  plan.workload = WorkloadKind::mutation;
  const std::vector<Genome> population(1 << 16);
  for (double rate : {0.0, 0.1, 0.5, 1.0}) {
    plan.mutation_rate = rate;
    const Mutation work = mutation_work(plan, 11);
    const std::vector<std::uint8_t> first = paths_of(work, population, 0);
    const std::vector<std::uint8_t> second = paths_of(work, population, 1);
    const double share = static_cast<double>(std::count(first.begin(), first.end(), 1)) / first.size();
    CHECK(share == doctest::Approx(rate).epsilon(0.02));
    if (rate > 0 && rate < 1) CHECK(first != second);
  }
}

TEST_CASE("--divergence is the share of warps drawn mixed: 0 gives no divergent warp, 1 every one") {
  const unsigned rounds[kMaxPaths] = {1, 1, 1, 1, 1, 1, 1, 1};
  for (unsigned paths = 1; paths <= kMaxPaths; ++paths) {
    CAPTURE(paths);
    const std::size_t n = 32 * 4096 + 5;
    const Synthetic work = synthetic(std::vector<unsigned>(paths, 1));
    const auto sorted = paths_of(work, synthetic_input(n, paths, 0.0, 3), 0);
    CHECK(warp_cost(sorted, {}, rounds).divergent_warps == 0);
    const auto mixed = paths_of(work, synthetic_input(n, paths, 1.0, 3), 0);
    const WarpCost cost = warp_cost(mixed, {}, rounds);
    CHECK(cost.warps == 4097);
    if (paths == 1) CHECK(cost.divergent_warps == 0);
    if (paths >= 2) CHECK(cost.divergent_warps >= 4096);  // the short last warp of 5 may draw one path
    const auto half = paths_of(work, synthetic_input(n, paths, 0.5, 3), 0);
    if (paths >= 2)
      CHECK(static_cast<double>(warp_cost(half, {}, rounds).divergent_warps) / 4097 ==
            doctest::Approx(0.5).epsilon(0.06));
    for (std::uint8_t p : mixed) CHECK(p < paths);
  }
  CHECK(synthetic_input(1000, 4, 0.5, 8) == synthetic_input(1000, 4, 0.5, 8));
  CHECK(synthetic_input(1000, 4, 0.5, 8) != synthetic_input(1000, 4, 0.5, 9));
}

TEST_CASE("warp costs, worked by hand") {
  const unsigned rounds[kMaxPaths] = {10, 30};
  SUBCASE("a uniform warp issues its path's rounds, every lane busy") {
    const std::vector<std::uint8_t> paths(32, 1);
    const WarpCost cost = warp_cost(paths, {}, rounds);
    CHECK(cost.branch_rounds == 30);
    CHECK(cost.loop_rounds == 30);
    CHECK(cost.loop_efficiency() == 1.0);
    CHECK(cost.divergent_warps == 0);
  }
  SUBCASE("a warp half on each path: a branch each issues 40, one loop 30") {
    std::vector<std::uint8_t> paths(32, 0);
    for (std::size_t i = 0; i < 32; i += 2) paths[i] = 1;
    const WarpCost cost = warp_cost(paths, {}, rounds);
    CHECK(cost.branch_rounds == 40);
    CHECK(cost.loop_rounds == 30);
    CHECK(cost.lane_rounds == 16 * 10 + 16 * 30);
    CHECK(cost.branch_efficiency() == doctest::Approx(640.0 / (32 * 40)));
    CHECK(cost.loop_efficiency() == doctest::Approx(640.0 / (32 * 30)));
    CHECK(cost.divergent_warps == 1);
    SUBCASE("two such warps sorted by path: one warp of each, no divergence") {
      std::vector<std::uint8_t> two = paths;
      two.insert(two.end(), paths.begin(), paths.end());
      const std::vector<std::uint32_t> order = order_by_path(two);
      const WarpCost sorted = warp_cost(two, order, rounds);
      CHECK(sorted.divergent_warps == 0);
      CHECK(sorted.loop_rounds == 40);
      CHECK(sorted.loop_efficiency() == 1.0);
    }
  }
  SUBCASE("a short last warp counts the lanes it has") {
    const std::vector<std::uint8_t> paths = {0, 1, 0};
    const WarpCost cost = warp_cost(paths, {}, rounds);
    CHECK(cost.warps == 1);
    CHECK(cost.loop_rounds == 30);
    CHECK(cost.lane_rounds == 50);
  }
}

TEST_CASE("the remaps' orders: stable by path, and the partial remap moves only divergent warps") {
  const Synthetic work = synthetic({1, 2, 3});
  const std::size_t n = 32 * 100 + 17;
  const auto paths = paths_of(work, synthetic_input(n, 3, 0.3, 21), 0);
  const std::vector<std::uint32_t> order = order_by_path(paths);
  CHECK(is_permutation_of_all(order, n));
  for (std::size_t t = 1; t < n; ++t) {
    CHECK(paths[order[t - 1]] <= paths[order[t]]);
    if (paths[order[t - 1]] == paths[order[t]]) CHECK(order[t - 1] < order[t]);
  }
  const std::vector<std::uint32_t> partial = partial_order(paths);
  CHECK(is_permutation_of_all(partial, n));
  const std::vector<std::uint32_t> moved = partial_moves(paths);
  const unsigned rounds[kMaxPaths] = {1, 1, 1};
  const std::size_t divergent = warp_cost(paths, {}, rounds).divergent_warps;
  CHECK(moved.size() <= divergent * 32);
  CHECK(moved.size() + 32 >= divergent * 32);  // every divergent warp's elements, the short last one aside
  CHECK(warp_cost(paths, partial, rounds).divergent_warps <= 3 + 1);  // at most one per path boundary, and the tail

  SUBCASE("an already sorted input moves nothing") {
    const auto sorted = paths_of(work, synthetic_input(n, 3, 0.0, 21), 0);
    CHECK(partial_moves(sorted).empty());
    const std::vector<std::uint32_t> in_place = partial_order(sorted);
    for (std::size_t t = 0; t < n; ++t) CHECK(in_place[t] == t);
  }
}

TEST_CASE("the host's remap (stage 6) is the stable order by path that the GPU's sort gives, every generation") {
  Plan plan;
  plan.workload = WorkloadKind::mutation;
  for (double rate : {0.0, 0.1, 1.0})
    for (std::size_t n : {std::size_t{1}, std::size_t{33}, std::size_t{(1 << 16) + 1}, std::size_t{3 << 16}}) {
      CAPTURE(rate);
      CAPTURE(n);
      plan.mutation_rate = rate;
      const Mutation work = mutation_work(plan, 13);
      for (unsigned step : {0u, 5u}) {
        std::vector<std::uint32_t> order(n, 0xFFFFFFFFu);
        order_on_host(work, n, step, order.data());
        CHECK(order == order_by_path(paths_of(work, std::vector<Genome>(n), step)));
      }
    }
}

TEST_CASE("stage 7's slots put the costliest path first, ties in path order, and its order is stable by slot") {
  const unsigned skewed[kMaxPaths] = {64, 128, 256, 512};
  const PathSlots slots = heaviest_first(skewed, 4);
  CHECK(std::vector<unsigned>(slots.slot, slots.slot + kMaxPaths) == std::vector<unsigned>{3, 2, 1, 0, 4, 5, 6, 7});
  const unsigned mutation[kMaxPaths] = {1, 512};
  CHECK(heaviest_first(mutation, 2).of(1) == 0);
  CHECK(heaviest_first(mutation, 2).of(0) == 1);
  const unsigned ties[kMaxPaths] = {5, 9, 5};
  const PathSlots tied = heaviest_first(ties, 3);
  CHECK(tied.of(1) == 0);
  CHECK(tied.of(0) == 1);
  CHECK(tied.of(2) == 2);
  const std::vector<std::uint8_t> paths = {0, 1, 0, 1, 1, 0};
  CHECK(order_by_slot(paths, heaviest_first(mutation, 2)) == std::vector<std::uint32_t>{1, 3, 4, 0, 2, 5});
  CHECK(order_by_slot(paths, PathSlots{}) == order_by_path(paths));
}

TEST_CASE("stage 9's arrangement, worked by hand: the cheap elements in place, the costliest listed at the end") {
  const unsigned rounds[kMaxPaths] = {1, 256};
  CHECK(costliest_path(rounds, 2) == 1);
  const unsigned tie[kMaxPaths] = {7, 7, 3};
  CHECK(costliest_path(tie, 3) == 0);
  // 64 elements, elements 3 and 40 mutate: threads 62 and 63 (warp 1) run them after their own.
  std::vector<std::uint8_t> paths(64, 0);
  paths[3] = paths[40] = 1;
  std::size_t elsewhere = 0;
  const WarpCost cost = lean_cost(paths, 1, rounds, &elsewhere);
  CHECK(cost.warps == 2);
  CHECK(cost.divergent_warps == 0);
  CHECK(cost.loop_rounds == 1 + (1 + 256));     // warp 0 ages; warp 1 ages, then mutates
  CHECK(cost.lane_rounds == 62 * 1 + 2 * 256);  // every element once
  CHECK(elsewhere == 2);
  // Already at the end: element 63 listed on its own thread.
  paths.assign(64, 0);
  paths[63] = 1;
  CHECK(lean_cost(paths, 1, rounds, &elsewhere).loop_rounds == 1 + (1 + 256));
  CHECK(elsewhere == 0);
  // n not a multiple of 32, every element listed: the in-place lanes all idle.
  paths.assign(33, 1);
  const WarpCost all = lean_cost(paths, 1, rounds, &elsewhere);
  CHECK(all.loop_rounds == 2 * 256);
  CHECK(all.lane_rounds == 33 * 256);
  CHECK(elsewhere == 0);
  // None listed: stage 2's cost of the uniform input.
  paths.assign(33, 0);
  CHECK(lean_cost(paths, 1, rounds, &elsewhere).loop_rounds == 2);
  CHECK(lean_cost(paths, 1, rounds, nullptr).lane_rounds == 33);
}

TEST_CASE("stage 8 remaps mixed warps of different cost and leaves uniform or equal-cost warps alone") {
  const std::size_t n = 1 << 18;
  const Synthetic skewed = synthetic({64, 128, 256, 512});
  const Synthetic equal = synthetic({64, 64, 64, 64});
  CHECK(sample_warps(paths_of(skewed, synthetic_input(n, 4, 1.0, 2), 0), skewed.rounds).remaps());
  CHECK_FALSE(sample_warps(paths_of(skewed, synthetic_input(n, 4, 0.0, 2), 0), skewed.rounds).remaps());
  CHECK_FALSE(sample_warps(paths_of(equal, synthetic_input(n, 4, 1.0, 2), 0), equal.rounds).remaps());
  const Sample sample = sample_warps(paths_of(skewed, synthetic_input(n, 4, 1.0, 2), 0), skewed.rounds);
  CHECK(sample.warps == 2048);
  CHECK(controlled_should_remap(100 + kBreakEvenRounds, 100, 1));
  CHECK_FALSE(controlled_should_remap(100 + kBreakEvenRounds - 1, 100, 1));
  CHECK_FALSE(controlled_should_remap(0, 0, 0));
}

TEST_CASE("the option parsers") {
  CHECK(parse_workload("synthetic") == WorkloadKind::synthetic);
  CHECK(parse_workload("mutation") == WorkloadKind::mutation);
  CHECK_THROWS_AS(parse_workload("gafort"), std::invalid_argument);
  CHECK(parse_costs("64,128,256,512") == std::vector<unsigned>{64, 128, 256, 512});
  CHECK(parse_costs("0") == std::vector<unsigned>{0});
  for (const char* bad : {"", "1,,2", "1,2,", "-1", "65537", "0x10", "1,2,3,4,5,6,7,8,9", "a"})
    CHECK_THROWS_AS(parse_costs(bad), std::invalid_argument);
  CHECK(default_rounds(0) == 64);
  CHECK(default_rounds(3) == 512);
  CHECK(default_rounds(7) == 512);
}

TEST_CASE("--analyze reports the paths, the warps and each stage, by hand for a sorted input") {
  Plan plan;
  plan.paths = 2;
  plan.rounds = {10, 30};
  plan.divergence = 0.0;
  const std::string report = analyze(plan, 32 * 64, 1, stage_facts(plan));
  CHECK(report.find("divergent warps: 0 of 64") != std::string::npos);
  CHECK(report.find("no: runs stage 2") != std::string::npos);
  plan.divergence = 1.0;
  const std::string mixed = analyze(plan, 32 * 64, 1, stage_facts(plan));
  CHECK(mixed.find("divergent warps: 64 of 64") != std::string::npos);
  CHECK(mixed.find("1  divergent                   2,560") != std::string::npos);  // 64 warps x (10 + 30)
  CHECK(mixed.find("2  branch-light                1,920") != std::string::npos);  // 64 warps x 30
}

TEST_CASE("--analyze: the paper's path-vector example, remapped by the chapter's stable order") {
  const PvectorExample example = pvector_example();
  REQUIRE(example.values.size() == 16);
  // The paper's table (slides 10-11): tid 0 holds 2 (<0,1>), tid 1 holds 11 (<1,0>), tid 2 holds 14 (<0,0>).
  CHECK(example.values[0] == 2);
  CHECK(example.paths[0] == 1);
  CHECK(example.values[1] == 11);
  CHECK(example.paths[1] == 2);
  CHECK(example.values[2] == 14);
  CHECK(example.paths[2] == 0);
  // Stable by path: the five <0,0> elements in their order, then <0,1>, <1,0>, <1,1>.
  CHECK(example.order == std::vector<std::uint32_t>{2, 5, 7, 9, 15, 0, 12, 14, 1, 11, 13, 3, 4, 6, 8, 10});
  for (std::size_t t = 1; t < example.order.size(); ++t)
    CHECK(example.paths[example.order[t - 1]] <= example.paths[example.order[t]]);
  // Warps of 4: every warp holds two paths or more before; after, only the two warps across a
  // boundary between paths do.
  CHECK(example.paths_before == std::vector<unsigned>{4, 2, 3, 3});
  CHECK(example.paths_after == std::vector<unsigned>{1, 2, 2, 1});
}

TEST_CASE("--analyze --format json: the example and the text's numbers, for tools/plot") {
  Plan plan;
  plan.paths = 2;
  plan.rounds = {10, 30};
  const nlohmann::json document = nlohmann::json::parse(analyze_json(plan, 32 * 64, 1, stage_facts(plan)));
  CHECK(document["analysis"] == "divergence-remap");
  const nlohmann::json& example = document["pvector_example"];
  CHECK(example["warp_width"] == 4);
  CHECK(example["pvectors"][1] == nlohmann::json::array({1, 0}));
  CHECK(example["order"][0] == 2);
  CHECK(example["paths_per_warp_after"][3] == 1);
  const nlohmann::json& input = document["input"];
  CHECK(input["warps"] == 64);
  CHECK(input["divergent_warps"] == 64);
  CHECK(input["stages"][0]["name"] == "divergent");
  CHECK(input["stages"][0]["warp_rounds"] == 2560.0);  // 64 warps x (10 + 30), as the text says
  CHECK(input["stages"][1]["warp_rounds"] == 1920.0);
  CHECK(input["sample"]["break_even_rounds"] == kBreakEvenRounds);
}

TEST_CASE("--analyze looks at the first 2^26 elements at most, and says so") {
  Plan plan;
  plan.rounds = {64, 128, 256, 512};
  CHECK(analyze(plan, 1000, 1, stage_facts(plan)).find("analyzed: the first") == std::string::npos);
  const std::string sampled = analyze(plan, kMaxAnalyzedElements + 1, 1, stage_facts(plan));
  CHECK(sampled.find("n = 2^26+1") != std::string::npos);
  CHECK(sampled.find("analyzed: the first 2^26 elements") != std::string::npos);
  CHECK(sampled.find(" of " + format_grouped(static_cast<std::int64_t>(kMaxAnalyzedElements / 32)) + " (") !=
        std::string::npos);  // the warps it counted: 2^21
  Plan mutation;
  mutation.workload = WorkloadKind::mutation;
  CHECK(analysis_host_bytes(mutation, std::uint64_t{1} << 32) == analysis_host_bytes(mutation, kMaxAnalyzedElements));
}

namespace {

/// The exit code main gives @p arguments before the GPU (nothing run): -1 when it would go on.
/// @p listed gets the workload of the table --list shows for the same arguments.
int parse_like_main(const std::vector<std::string>& arguments, WorkloadKind* listed = nullptr) {
  if (listed != nullptr) {
    // The stage only the mutation table has (by trait: the listing of its arrangement).
    Plan mutation;
    mutation.workload = WorkloadKind::mutation;
    std::string lean;
    for (const StageFacts& stage : stage_facts(mutation))
      if (stage.traits.arrangement == Arrangement::lean) lean = stage.info.name;
    std::vector<std::string> listing = arguments;
    listing.push_back("--list");
    ParsedChapter<Plan> parsed(chapter());
    const std::string printed = testing::parse_captured(parsed, listing).out;
    *listed = printed.find(lean) != std::string::npos ? WorkloadKind::mutation : WorkloadKind::synthetic;
  }
  const int code = testing::exit_code_of(chapter(), arguments);
  return code == 0 ? -1 : code;
}

}  // namespace

TEST_CASE("the table is the workload's, --workload=mutation or --workload mutation alike") {
  WorkloadKind listed = WorkloadKind::synthetic;
  CHECK(parse_like_main({"--workload=mutation", "--stage", "9"}, &listed) == -1);
  CHECK(listed == WorkloadKind::mutation);
  CHECK(parse_like_main({"--workload", "mutation", "--stage", "6", "--stage", "pipelined-lean"}, &listed) == -1);
  CHECK(listed == WorkloadKind::mutation);
  CHECK(parse_like_main({"--n", "100", "--workload=synthetic", "--stage", "8"}, &listed) == -1);
  CHECK(listed == WorkloadKind::synthetic);
  CHECK(parse_like_main({"--stage", "5"}, &listed) == -1);
  CHECK(listed == WorkloadKind::synthetic);
  // A command line that does not parse lists the synthetic table; the parse says why.
  CHECK(parse_like_main({"--workload=mutation", "--bogus"}, &listed) == 2);
  CHECK(listed == WorkloadKind::synthetic);
  // The mutation table's own stages, asked for without it, are named as such (exit 2).
  for (const char* stage : {"6", "9", "pipelined-cpu", "PIPELINED-LEAN"}) {
    CAPTURE(stage);
    CHECK(parse_like_main({"--stage", stage}) == 2);
    CHECK(parse_like_main({"--workload=synthetic", "--stage", stage}) == 2);
  }
  CHECK(parse_like_main({"--stage", "7"}) == 2);  // in neither table here: unknown
}

TEST_CASE("--analyze refuses the common options it does not read, and --steps") {
  CHECK(parse_like_main(
            {"--analyze", "--n", "1000", "--seed", "3", "--workload", "mutation", "--mutation-rate", "5%"}) == -1);
  for (const char* format : {"table", "json"}) CHECK(parse_like_main({"--analyze", "--format", format}) == -1);
  for (const std::vector<std::string>& idle : std::vector<std::vector<std::string>>{{"--reps", "3"},
                                                                                    {"--warmup", "1"},
                                                                                    {"--device", "0"},
                                                                                    {"--compact"},
                                                                                    {"--warm-cache"},
                                                                                    {"--flush", "write"},
                                                                                    {"--format", "csv"},
                                                                                    {"--format", "markdown"},
                                                                                    {"--output", "x.json"},
                                                                                    {"--stage", "1"},
                                                                                    {"--sweep"},
                                                                                    {"--steps", "2"}}) {
    std::vector<std::string> arguments = {"--analyze", "--workload", "mutation"};
    arguments.insert(arguments.end(), idle.begin(), idle.end());
    CAPTURE(idle.front());
    CHECK(parse_like_main(arguments) == 2);
  }
  for (const char* option : {"--workload", "--costs", "--divergence", "--mutation-rate"}) {
    CAPTURE(option);
    CHECK(parse_like_main({option, ""}) == 2);
  }
}

TEST_CASE("memory: what a run holds on the host and the device, before anything is allocated") {
  Plan synthetic;
  CHECK(host_bytes(synthetic, 1000) == doctest::Approx(5.0 * 4 * 1000));
  CHECK(device_bytes(synthetic, 1000) == doctest::Approx((5.0 * 4 + 21) * 1000));
  Plan mutation;
  mutation.workload = WorkloadKind::mutation;
  CHECK(host_bytes(mutation, 1000) == doctest::Approx((5.0 * 16 + 8) * 1000));
  CHECK(device_bytes(mutation, 1000) == doctest::Approx((5.0 * 16 + 21) * 1000));
}
