// CPU tests of chapter 01's table and launch shapes: no GPU is touched, only the rows and
// the host checks every launcher makes before it launches.
#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "reduction.hpp"

using namespace stepwise;
using namespace stepwise::reduction;

namespace {

/// Every shape @p stage can run with: its default, its sweep's, and each --block's.
std::vector<LaunchShape> shapes_of(const ReduceStage<float>& stage) {
  std::vector<LaunchShape> shapes = stage.sweep;
  shapes.push_back(stage.shape);
  if (changed_by(stage, "--block"))
    for (int block : Blocks::values()) shapes.push_back(with_block(stage.shape, block));
  return shapes;
}

}  // namespace

TEST_CASE("the table: twelve stages in teaching order, then CUB, the same for both element types") {
  const std::vector<std::string> names = {"interleaved-divergent",
                                          "interleaved-divergent-mask",
                                          "interleaved-strided",
                                          "sequential",
                                          "first-add",
                                          "unroll-last-warp",
                                          "complete-unroll",
                                          "multiple-per-thread",
                                          "warp-shuffle",
                                          "vectorized",
                                          "large-blocks",
                                          "single-pass",
                                          "cub::DeviceReduce::Sum"};
  REQUIRE(reduce_stages<float>().size() == names.size());
  REQUIRE(reduce_stages<std::uint32_t>().size() == names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    const ReduceStage<float>& stage = reduce_stages<float>()[i];
    CAPTURE(stage.name);
    CHECK(stage.name == names[i]);
    CHECK(reduce_stages<std::uint32_t>()[i].name == names[i]);
    CHECK(static_cast<bool>(stage.launch));
    CHECK(stage.number == (i + 1 < names.size() ? static_cast<int>(i + 1) : 0));
    CHECK(stage.kind == (i + 1 < names.size() ? RowKind::kernel : RowKind::library));
    CHECK(reduce_stages<std::uint32_t>()[i].shape == stage.shape);
  }
}

TEST_CASE("default shapes: 256 threads for stages 1-10 (8-10 at 2048 per SM), the tuned 1024 x 2 for 11 and 12") {
  const std::vector<ReduceStage<float>>& stages = reduce_stages<float>();
  for (int i = 0; i < 7; ++i) CHECK(stages[i].shape == LaunchShape{256, 0, 0});
  for (int i = 7; i < 10; ++i) CHECK(stages[i].shape == LaunchShape{256, 0, 8});
  CHECK(stages[10].shape == LaunchShape{1024, 0, 2});
  CHECK(stages[11].shape == LaunchShape{1024, 0, 2});
  CHECK(stages[12].shape.empty());
  CHECK(stages[12].sweep.empty());
  // --block reaches the stages at the default 256 threads (up to the vectorized one at stage 9's
  // shape), not the tuned ones nor the library.
  for (const ReduceStage<float>& stage : stages) {
    CAPTURE(stage.name);
    CHECK(changed_by(stage, "--block") == (stage.kind == RowKind::kernel && stage.shape.threads == 256));
  }
}

TEST_CASE("each stage changes one thing: the same launcher at a new shape, or a new launcher at the same block") {
  const std::vector<ReduceStage<float>>& stages = reduce_stages<float>();
  for (std::size_t i = 1; i < stages.size(); ++i) {
    if (stages[i].kind != RowKind::kernel) continue;
    CAPTURE(stages[i].name);
    if (stages[i].launch == stages[i - 1].launch)
      CHECK(stages[i].shape != stages[i - 1].shape);
    else  // a new kernel (stage 8's GPU-sized grid is part of its algorithm) at the block size before it
      CHECK(stages[i].shape.threads == stages[i - 1].shape.threads);
  }
  // Stage 11 is stage 10's kernel at the tuned shape.
  CHECK(static_cast<bool>(stages[10].launch == vectorized<float>().launch));
  CHECK(stages[10].shape != stages[9].shape);
}

TEST_CASE("sweeps: every block size for stages 1-7, every block size x 512, 1024, 2048 threads per SM for 8-12") {
  CHECK(block_sweep().size() == 5);
  const std::vector<LaunchShape> resident = resident_sweep();
  CHECK(resident.size() == 3 + 3 + 3 + 3 + 2);  // 1024 threads per block cannot run at 512 per SM
  CHECK(resident.front() == LaunchShape{64, 0, 8});
  CHECK(resident.back() == LaunchShape{1024, 0, 2});
  for (const ReduceStage<float>& stage : reduce_stages<float>()) {
    if (stage.kind != RowKind::kernel) continue;
    CAPTURE(stage.name);
    if (stage.name == "vectorized") {
      CHECK(stage.sweep.empty());  // stage 9's shape by definition; stage 11 sweeps the same kernel
      continue;
    }
    CHECK(stage.sweep == (stage.shape.blocks_per_sm == 0 ? block_sweep() : resident));
  }
}

TEST_CASE("--block sets the threads per block, and a grid-sized stage keeps its threads per SM") {
  CHECK(with_block({256}, 64) == LaunchShape{64, 0, 0});
  CHECK(with_block({256, 0, 8}, 64) == LaunchShape{64, 0, 32});
  CHECK(with_block({256, 0, 8}, 1024) == LaunchShape{1024, 0, 2});
}

TEST_CASE("every shape a stage runs with is accepted, and keeps the float tolerance's assumptions") {
  for (const ReduceStage<float>& stage : reduce_stages<float>()) {
    if (stage.kind != RowKind::kernel) continue;
    CAPTURE(stage.name);
    for (const LaunchShape& shape : shapes_of(stage)) {
      CAPTURE(describe(shape));
      CHECK_NOTHROW(require_block(shape));
      if (shape.blocks_per_sm == 0) continue;
      // summation_depth_bound counts on at least kMinThreadsPerSm threads per SM, at most 2048.
      CHECK(shape.threads * shape.blocks_per_sm >= kMinThreadsPerSm);
      CHECK(shape.threads * shape.blocks_per_sm <= kMaxThreadsPerSm);
      CHECK_NOTHROW(require_resident_threads(shape));
    }
  }
}

TEST_CASE("shapes the kernels cannot run are refused before any launch") {
  for (int threads : {0, 32, 96, 100, 2048}) CHECK_THROWS_AS(require_block({threads}), std::invalid_argument);
  CHECK_THROWS_AS(require_resident_threads({256, 0, 0}), std::invalid_argument);
  CHECK_THROWS_AS(require_resident_threads({256, 0, 1}), std::invalid_argument);   // 256 threads per SM
  CHECK_THROWS_AS(require_resident_threads({256, 0, 16}), std::invalid_argument);  // 4096 threads per SM
  CHECK_THROWS_AS(require_resident_threads({96, 0, 8}), std::invalid_argument);
  CHECK_NOTHROW(require_resident_threads({64, 0, 8}));
  CHECK_NOTHROW(require_resident_threads({1024, 0, 2}));
}
