// GPU tests of chapter 07: every row of both tables, at its default shape and every --sweep
// shape, on the sizes where warp-level bugs live (n = 1, a warp +- 1, a block +- 1, several
// blocks), from 0 % to 100 % mixed warps, one path and 2 to 8 paths, and the mutation workload
// over 1 to 3 generations at rates 0, 10 % and 100 %. Outputs are poisoned first and seeds are
// fresh; every row must equal the reference exactly, in the input's order, and write nothing
// outside its buffers. Also: the partial remap moves nothing on sorted input and exactly the
// divergent warps' elements otherwise; stage 8 remaps mixed input and leaves sorted input alone;
// stage 7's counting sort gives exactly the stable order by path, on any number of blocks; stage 9's
// lean remap lists exactly the costliest path's elements. The checks of every row are
// divergence_checks.hpp's, which the grader of exercise 07-4 runs on the student's stage.
// A new stage is tested with no edit here.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "divergence.hpp"
#include "divergence_checks.hpp"
#include "gpu_checks.hpp"
#include "host/check.hpp"
#include "host/data.hpp"
#include "inputs.hpp"
#include "problems.hpp"

using namespace stepwise;
using namespace stepwise::divergence;
using namespace stepwise::testing;

namespace {

/// The synthetic table's row arranged as @p arrangement (its trait).
const DivergeStage<Synthetic>& stage_arranged(Arrangement arrangement) {
  for (const DivergeStage<Synthetic>& stage : diverge_stages<Synthetic>())
    if (stage.traits.arrangement == arrangement) return stage;
  throw std::invalid_argument("no stage of that arrangement");
}

}  // namespace

TEST_CASE("synthetic: every row equals the reference at every edge size, from sorted to fully mixed") {
  check_synthetic_edge_sizes(divergence_chapter_rows());
}

TEST_CASE("synthetic: one path, and 2 to 8 paths") { check_synthetic_paths(divergence_chapter_rows()); }

TEST_CASE("mutation: every row equals the reference over 1 to 3 generations, at rates 0, 10 % and 100 %") {
  check_mutation_generations(divergence_chapter_rows());
}

TEST_CASE("the partial remap moves nothing on sorted input and exactly the divergent warps' elements otherwise") {
  const std::size_t n = 32 * 1000 + 7;
  for (double divergence : {0.0, 0.3, 1.0}) {
    const std::uint64_t seed = fresh_seed();
    CAPTURE(divergence);
    CAPTURE(seed);
    const Plan plan = synthetic_plan(4, divergence);
    const Synthetic work = synthetic_work(plan);
    const std::vector<std::uint32_t> input = synthetic_input(n, 4, divergence, seed);
    const std::size_t expected = partial_moves(paths_of(work, input, 0)).size();
    if (divergence == 0.0) CHECK(expected == 0);
    DivergeProblem<Synthetic> problem(work, input, 1);
    check_diverge_row(stage_arranged(Arrangement::partial), stage_arranged(Arrangement::partial).shape, problem);
    CHECK(problem.last_moved() == expected);
  }
}

TEST_CASE("stage 8 remaps fully mixed input of different costs and leaves sorted input alone") {
  Plan plan;
  plan.paths = 4;
  plan.rounds = {64, 128, 256, 512};
  for (double divergence : {0.0, 1.0}) {
    CAPTURE(divergence);
    plan.divergence = divergence;
    DivergeProblem<Synthetic> problem(synthetic_work(plan), synthetic_input(1 << 18, 4, divergence, fresh_seed()), 1);
    check_diverge_row(stage_arranged(Arrangement::sampled), stage_arranged(Arrangement::sampled).shape, problem);
    CHECK(problem.controlled_remapped() == (divergence > 0));
  }
}

TEST_CASE("stage 9's lean remap lists exactly the costliest path's elements and sets their bits, at any n and grid") {
  for (std::size_t n : {std::size_t{1}, std::size_t{31}, std::size_t{33}, std::size_t{2047}, std::size_t{2049},
                        std::size_t{100003}, (std::size_t{1} << 22) + 3}) {
    const std::uint64_t seed = fresh_seed();
    CAPTURE(n);
    CAPTURE(seed);
    const std::vector<Genome> input = random_population(n, seed);
    DeviceBuffer<Genome> in(input);
    RemapScratch workspace(n, sizeof(Genome), cub_temp_bytes(n), false);
    for (double rate : {0.0, 0.1, 1.0}) {
      CAPTURE(rate);
      Plan plan;
      plan.workload = WorkloadKind::mutation;
      plan.mutation_rate = rate;
      const Mutation work = mutation_work(plan, seed);
      DivergeArgs<Mutation> args;
      args.work = work;
      args.in = in.data();
      args.n = n;
      args.steps = 1;
      const unsigned step = 2;
      const std::vector<std::uint8_t> paths = paths_of(work, input, step);
      std::vector<std::uint32_t> expected_list, expected_bits((n + 31) / 32, 0);
      for (std::size_t i = 0; i < n; ++i)
        if (paths[i] == 1) {
          expected_list.push_back(static_cast<std::uint32_t>(i));
          expected_bits[i / 32] |= 1u << (i % 32);
        }
      for (unsigned blocks : {1u, 7u, 132u, 4096u}) {
        CAPTURE(blocks);
        const std::vector<std::uint32_t> poison(n, 0xFFFFFFFFu);
        STEPWISE_CUDA_CHECK(
            cudaMemcpy(workspace.sorted_indices(1), poison.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
        STEPWISE_CUDA_CHECK(
            cudaMemcpy(workspace.indices(1), poison.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
        lean_remap(args, workspace, step, 1, blocks, nullptr);
        STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
        std::uint32_t listed = 0;
        STEPWISE_CUDA_CHECK(cudaMemcpy(&listed, workspace.path_counts(1), sizeof listed, cudaMemcpyDeviceToHost));
        std::vector<std::uint32_t> list(n), bits(n);
        STEPWISE_CUDA_CHECK(
            cudaMemcpy(list.data(), workspace.sorted_indices(1), n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
        STEPWISE_CUDA_CHECK(
            cudaMemcpy(bits.data(), workspace.indices(1), n * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
        REQUIRE(listed == expected_list.size());
        std::vector<std::uint32_t> sorted(list.begin(), list.begin() + listed);
        std::sort(sorted.begin(), sorted.end());
        CHECK(sorted == expected_list);
        CHECK(std::all_of(list.begin() + listed, list.end(), [](std::uint32_t v) { return v == 0xFFFFFFFFu; }));
        CHECK(std::vector<std::uint32_t>(
                  bits.begin(), bits.begin() + static_cast<std::ptrdiff_t>(expected_bits.size())) == expected_bits);
      }
    }
    DivergeArgs<Mutation> args;
    args.n = n;
    CHECK_THROWS_AS(lean_remap(args, workspace, 0, 1, 0, nullptr), std::invalid_argument);
  }
}

TEST_CASE("stage 7's counting remap is the stable order by path (or by slot), at any n, paths and grid") {
  auto check_order = [](const auto& work, const auto& input, unsigned step) {
    using W = std::decay_t<decltype(work)>;
    using Item = typename W::Item;
    const std::size_t n = input.size();
    DeviceBuffer<Item> in(input);
    RemapScratch workspace(n, sizeof(Item), cub_temp_bytes(n), false);
    const std::vector<std::uint32_t> order(n, 0xFFFFFFFFu);  // poison
    DivergeArgs<W> args;
    args.work = work;
    args.in = in.data();
    args.n = n;
    args.steps = 1;
    const std::vector<std::uint8_t> paths = paths_of(work, input, step);
    const PathSlots by_path;
    const PathSlots heaviest = heaviest_first(work.rounds, work.paths);
    for (const PathSlots* slots : {&by_path, &heaviest}) {
      const std::vector<std::uint32_t> expected =
          slots == &by_path ? order_by_path(paths) : order_by_slot(paths, *slots);
      for (unsigned blocks : {1u, 7u, 132u, 1056u, 4096u}) {
        CAPTURE(blocks);
        CAPTURE(slots == &by_path);
        STEPWISE_CUDA_CHECK(
            cudaMemcpy(workspace.sorted_indices(1), order.data(), n * sizeof(std::uint32_t), cudaMemcpyHostToDevice));
        counting_remap(args, workspace, step, 1, *slots, blocks, nullptr);
        STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
        std::vector<std::uint32_t> remapped(n);
        STEPWISE_CUDA_CHECK(cudaMemcpy(remapped.data(), workspace.sorted_indices(1), n * sizeof(std::uint32_t),
                                       cudaMemcpyDeviceToHost));
        CHECK(remapped == expected);
      }
    }
    CHECK_THROWS_AS(counting_remap(args, workspace, step, 1, by_path, 0, nullptr), std::invalid_argument);
  };
  for (std::size_t n :
       {std::size_t{1}, std::size_t{31}, std::size_t{257}, std::size_t{100003}, (std::size_t{1} << 22) + 3}) {
    const std::uint64_t seed = fresh_seed();
    CAPTURE(n);
    CAPTURE(seed);
    for (double rate : {0.0, 0.1, 1.0}) {
      CAPTURE(rate);
      Plan plan;
      plan.workload = WorkloadKind::mutation;
      plan.mutation_rate = rate;
      check_order(mutation_work(plan, seed), random_population(n, seed), 3);
    }
    for (unsigned paths : {1u, 3u, 8u}) {
      CAPTURE(paths);
      const Plan plan = synthetic_plan(paths, 0.5);
      check_order(synthetic_work(plan), synthetic_input(n, paths, 0.5, seed), 0);
    }
  }
}
