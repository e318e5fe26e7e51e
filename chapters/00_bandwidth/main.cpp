// Chapter 00: memory bandwidth. Copy kernels against cudaMemcpy.
//
// Stages (each row of the table):
//   1 one-per-thread   one element per thread, a grid as large as the array
//   2 grid-stride      a GPU-sized grid loops over the array
//   3 warp-sequences   each warp copies its own contiguous sequence
//   4 vector-int2      8-byte loads and stores
//   5 vector-int4      16-byte loads and stores
//   6 int4-unrolled    four 16-byte loads in flight per thread
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

/// A copy stage: its launcher, the launch shape the --sweep found best on an H100, and
/// which shape parameters the sweep varies.
struct CopyStage {
  int number;
  const char* name;
  const char* lesson;
  CopyLauncher launch;
  CopyConfig tuned;
  bool sweeps_blocks;
  bool sweeps_sequence;
};

const std::vector<CopyStage> kCopyStages = {
    {1,
     "one-per-thread",
     "one element per thread, one block per 'threads' elements",
     copy_one_per_thread,
     {256, 0, 32},
     false,
     false},
    {2,
     "grid-stride",
     "a GPU-sized grid loops: block start-up paid once, any n with any grid",
     copy_grid_stride,
     {256, 8, 32},
     true,
     false},
    {3,
     "warp-sequences",
     "each warp walks its own contiguous sequence, coalesced per step",
     copy_warp_sequences,
     {256, 0, 32 * 64},
     false,
     true},
    {4,
     "vector-int2",
     "8-byte loads and stores: half the memory instructions",
     copy_vector2,
     {256, 8, 32},
     true,
     false},
    {5,
     "vector-int4",
     "16-byte loads and stores: a quarter of the instructions",
     copy_vector4,
     {256, 8, 32},
     true,
     false},
    {6,
     "int4-unrolled",
     "four independent 16-byte loads in flight per thread before the stores",
     copy_vector4_unrolled,
     {256, 4, 32},
     true,
     false},
};

Stage<CopyProblem> as_stage(const CopyStage& copy) {
  return {copy.number, copy.name, copy.lesson, RowKind::kernel,
          [launch = copy.launch, config = copy.tuned](CopyProblem& p, cudaStream_t stream) {
            launch(p.in(), p.out(), p.n(), config, stream);
          }};
}

std::vector<Stage<CopyProblem>> copy_stages() {
  std::vector<Stage<CopyProblem>> stages;
  for (const CopyStage& copy : kCopyStages) stages.push_back(as_stage(copy));
  stages.push_back({0, "cudaMemcpy", "cudaMemcpyAsync device to device: the driver's copy", RowKind::library,
                    [](CopyProblem& p, cudaStream_t stream) {
                      STEPWISE_CUDA_CHECK(cudaMemcpyAsync(p.out(), p.in(), p.n() * sizeof(std::int32_t),
                                                          cudaMemcpyDeviceToDevice, stream));
                    }});
  return stages;
}

/// --sweep: every launch shape of every selected stage, checked and timed; the best per stage.
int sweep(Session& session, CopyProblem& problem) {
  const std::vector<int> thread_counts = {128, 256, 512, 1024};
  const std::vector<int> blocks_per_sm = {1, 2, 4, 8, 16, 32};
  const std::vector<int> sequences = {32 * 4, 32 * 16, 32 * 64, 32 * 256, 32 * 1024};
  Report report = session.new_report(problem);
  std::cout << "sweep: best launch shape per stage (threads x blocks per SM, or x elements per warp)\n";
  bool all_passed = true;
  for (const CopyStage& copy : kCopyStages) {
    if (!session.options().selects(copy.name)) continue;
    ReportRow best;
    CopyConfig best_config;
    for (int threads : thread_counts) {
      for (int blocks : copy.sweeps_blocks ? blocks_per_sm : std::vector<int>{1}) {
        for (int sequence : copy.sweeps_sequence ? sequences : std::vector<int>{32}) {
          const CopyConfig config{threads, blocks, sequence};
          const BoundStage bound{as_stage(copy).info(), [&, config](cudaStream_t stream) {
                                   copy.launch(problem.in(), problem.out(), problem.n(), config, stream);
                                 }};
          ReportRow row = session.measure(bound, problem);
          if (row.check != "PASS") {
            all_passed = false;
            std::cout << "  FAIL " << copy.name << " threads " << threads << ": " << row.check_detail << "\n";
            continue;
          }
          if (!best.time || row.time->median_ms < best.time->median_ms) {
            best = row;
            best_config = config;
          }
        }
      }
    }
    if (!best.time) continue;
    std::cout << "  " << copy.number << " " << copy.name << ": threads " << best_config.threads;
    if (copy.sweeps_blocks) std::cout << ", blocks/SM " << best_config.blocks_per_sm;
    if (copy.sweeps_sequence) std::cout << ", sequence " << best_config.sequence;
    std::cout << "\n";
    best.name += " (" + std::to_string(best_config.threads) + "t" +
                 (copy.sweeps_blocks ? " x" + std::to_string(best_config.blocks_per_sm) + "/SM" : "") +
                 (copy.sweeps_sequence ? " s" + std::to_string(best_config.sequence) : "") + ")";
    report.rows.push_back(best);
  }
  derive_columns(report);
  session.publish(report);
  return all_passed ? kExitOk : kExitFailed;
}

}  // namespace

int main(int argc, char** argv) {
  return run_main(argv[0], [&] {
    ChapterCli cli(kChapter, describe(copy_stages()));
    bool run_sweep = false;
    cli.app().add_flag("--sweep", run_sweep, "Search threads per block x blocks per SM (x warp sequence) per stage");
    if (auto exit_code = cli.parse(argc, argv)) return *exit_code;

    Session session(cli);
    const std::size_t n = cli.options().n;
    session.require_device_bytes(2.0 * n * sizeof(std::int32_t));
    CopyProblem problem(n, cli.options().seed);
    const std::vector<Stage<CopyProblem>> stages = copy_stages();
    return run_sweep ? sweep(session, problem) : session.run(stages, problem);
  });
}
