// Chapter 00: memory bandwidth. Copy kernels against cudaMemcpy.
//
// Stages (each row of the table):
//   1 one-per-thread   one element per thread, a grid as large as the array
//   2 grid-stride      a GPU-sized grid loops over the array
//   3 warp-sequences   each warp copies its own contiguous sequence
//   4 vector-int2      8-byte loads and stores
//   5 vector-int4      16-byte loads and stores
//   6 int4-unrolled    four 16-byte loads in flight per thread
//   7 int4-tiles       each block copies one contiguous tile, all loads in flight
//   lib cudaMemcpy     cudaMemcpyAsync device to device
#include <cstdint>
#include <cstring>
#include <iostream>
#include <vector>

#include "copy_stages.hpp"
#include "data.hpp"
#include "device_buffer.hpp"
#include "harness.hpp"

namespace {

using namespace stepwise;
using namespace stepwise::bandwidth;

const ChapterInfo kChapter = {"00",
                              "bandwidth",
                              "copy kernels against cudaMemcpy: the ceiling of every chapter",
                              std::uint64_t{1} << 28,
                              1,
                              "std::memcpy of the input on the host"};

/// Input, output and reference of one copy. The reference of a copy is its input.
class CopyProblem final : public Problem {
 public:
  CopyProblem(std::size_t n, std::uint64_t seed)
      : input_(random_ints(n, seed, INT32_MIN, INT32_MAX)), scratch_(n), in_(input_), out_(n) {}

  std::string element_type() const override { return "int32"; }
  double bytes_moved() const override { return 2.0 * sizeof(std::int32_t) * input_.size(); }
  void poison_output() override { poison(out_); }
  Check check_output() override { return compare_exact(out_.download(), input_); }
  void run_cpu_reference() override {
    std::memcpy(scratch_.data(), input_.data(), input_.size() * sizeof(std::int32_t));
  }

  const std::int32_t* in() const { return in_.data(); }
  std::int32_t* out() { return out_.data(); }
  std::size_t n() const { return input_.size(); }

 private:
  std::vector<std::int32_t> input_;
  std::vector<std::int32_t> scratch_;
  DeviceBuffer<std::int32_t> in_;
  DeviceBuffer<std::int32_t> out_;
};

using CopyLauncher = void (*)(const std::int32_t*, std::int32_t*, std::size_t, const CopyConfig&, cudaStream_t);

/// Which launch-shape parameters --sweep varies for a stage (threads per block always).
enum class SweepAxis { threads_only, blocks_per_sm, sequence, vectors_per_thread };

/// A copy stage: its launcher, the launch shape that --sweep found best at 2^28 on the
/// GPU of the chapter README's table, and what the sweep varies.
struct CopyStage {
  int number;
  const char* name;
  const char* lesson;
  CopyLauncher launch;
  CopyConfig tuned;
  SweepAxis axis;
};

const std::vector<CopyStage> kCopyStages = {
    {1,
     "one-per-thread",
     "one element per thread, one block per 'threads' elements",
     copy_one_per_thread,
     {256, 1, 32, 1},
     SweepAxis::threads_only},
    {2,
     "grid-stride",
     "a GPU-sized grid loops: block start-up paid once, any n with any grid",
     copy_grid_stride,
     {1024, 32, 32, 1},
     SweepAxis::blocks_per_sm},
    {3,
     "warp-sequences",
     "each warp walks its own contiguous sequence, coalesced per step",
     copy_warp_sequences,
     {128, 1, 128, 1},
     SweepAxis::sequence},
    {4,
     "vector-int2",
     "8-byte loads and stores: half the memory instructions",
     copy_vector2,
     {256, 8, 32, 1},
     SweepAxis::blocks_per_sm},
    {5,
     "vector-int4",
     "16-byte loads and stores: a quarter of the instructions",
     copy_vector4,
     {1024, 32, 32, 1},
     SweepAxis::blocks_per_sm},
    {6,
     "int4-unrolled",
     "four independent 16-byte loads in flight per thread before the stores",
     copy_vector4_unrolled,
     {128, 4, 32, 4},
     SweepAxis::blocks_per_sm},
    {7,
     "int4-tiles",
     "each block copies one contiguous tile, all its int4 loads in flight, no loop",
     copy_vector4_tiles,
     {256, 1, 32, 1},
     SweepAxis::vectors_per_thread},
};

/// The launch shapes --sweep tries for @p copy.
std::vector<CopyConfig> sweep_space(const CopyStage& copy) {
  std::vector<CopyConfig> configs;
  for (int threads : {128, 256, 512, 1024}) {
    CopyConfig config = copy.tuned;
    config.threads = threads;
    switch (copy.axis) {
      case SweepAxis::threads_only:
        configs.push_back(config);
        break;
      case SweepAxis::blocks_per_sm:
        for (int blocks : {1, 2, 4, 8, 16, 32}) {
          config.blocks_per_sm = blocks;
          configs.push_back(config);
        }
        break;
      case SweepAxis::sequence:
        for (int sequence : {32 * 4, 32 * 16, 32 * 64, 32 * 256, 32 * 1024}) {
          config.sequence = sequence;
          configs.push_back(config);
        }
        break;
      case SweepAxis::vectors_per_thread:
        for (int vectors : {1, 2, 4, 8}) {
          config.vectors_per_thread = vectors;
          configs.push_back(config);
        }
        break;
    }
  }
  return configs;
}

/// `256t x8/SM`: the shape parameters of @p config that @p axis varies.
std::string describe_shape(const CopyConfig& config, SweepAxis axis) {
  std::string text = std::to_string(config.threads) + "t";
  switch (axis) {
    case SweepAxis::threads_only:
      break;
    case SweepAxis::blocks_per_sm:
      text += " x" + std::to_string(config.blocks_per_sm) + "/SM";
      break;
    case SweepAxis::sequence:
      text += " seq " + std::to_string(config.sequence);
      break;
    case SweepAxis::vectors_per_thread:
      text += " " + std::to_string(config.vectors_per_thread) + " int4/thread";
      break;
  }
  return text;
}

Stage<CopyProblem> as_stage(const CopyStage& copy, const CopyConfig& config) {
  return {copy.number, copy.name, copy.lesson, RowKind::kernel,
          [launch = copy.launch, config](CopyProblem& p, cudaStream_t stream) {
            launch(p.in(), p.out(), p.n(), config, stream);
          }};
}

std::vector<Stage<CopyProblem>> copy_stages() {
  std::vector<Stage<CopyProblem>> stages;
  for (const CopyStage& copy : kCopyStages) stages.push_back(as_stage(copy, copy.tuned));
  stages.push_back({0, "cudaMemcpy", "cudaMemcpyAsync device to device: the driver's copy", RowKind::library,
                    [](CopyProblem& p, cudaStream_t stream) {
                      STEPWISE_CUDA_CHECK(cudaMemcpyAsync(p.out(), p.in(), p.n() * sizeof(std::int32_t),
                                                          cudaMemcpyDeviceToDevice, stream));
                    }});
  return stages;
}

/// --sweep: every launch shape of every selected stage, checked and timed; one row per
/// stage with its best shape, and the memcpy row for comparison.
int sweep(Session& session, CopyProblem& problem, const std::vector<Stage<CopyProblem>>& stages) {
  Report report = session.new_report(problem);
  bool all_passed = true;
  for (const CopyStage& copy : kCopyStages) {
    if (!session.options().selects(copy.name)) continue;
    ReportRow best;
    for (const CopyConfig& config : sweep_space(copy)) {
      const Stage<CopyProblem> stage = as_stage(copy, config);
      ReportRow row = session.measure({stage.info(), [&](cudaStream_t s) { stage.run(problem, s); }}, problem);
      row.name += " (" + describe_shape(config, copy.axis) + ")";
      if (row.check != "PASS") {
        all_passed = false;
        report.rows.push_back(row);
      } else if (!best.time || row.time->median_ms < best.time->median_ms) {
        best = row;
      }
    }
    if (best.time) report.rows.push_back(best);
  }
  for (const Stage<CopyProblem>& stage : stages)
    if (stage.kind == RowKind::library)
      report.rows.push_back(session.measure({stage.info(), [&](cudaStream_t s) { stage.run(problem, s); }}, problem));
  derive_columns(report);
  std::cout << "sweep: the best launch shape of each stage (threads per block, and the varied parameter)\n";
  session.publish(report);
  return all_passed ? kExitOk : kExitFailed;
}

}  // namespace

int main(int argc, char** argv) {
  return run_main(argv[0], [&] {
    ChapterCli cli(kChapter, describe(copy_stages()));
    bool run_sweep = false;
    cli.app().add_flag("--sweep", run_sweep,
                       "Search each stage's launch shape (threads x blocks/SM, sequence or int4 per thread)");
    if (auto exit_code = cli.parse(argc, argv)) return *exit_code;

    Session session(cli);
    const std::size_t n = cli.options().n;
    session.require_device_bytes(2.0 * n * sizeof(std::int32_t));
    CopyProblem problem(n, cli.options().seed);
    const std::vector<Stage<CopyProblem>> stages = copy_stages();
    return run_sweep ? sweep(session, problem, stages) : session.run(stages, problem);
  });
}
