// Chapter 11's spec: its options bound to the plan, the all-reduce problem on every GPU of the
// team, its analysis (the cost model, no GPU needed) and its run (every row at every size, the
// slowest GPU's time, the fit).
#include "chapter.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "allreduce.hpp"
#include "analysis.hpp"
#include "communicators.hpp"
#include "distributed.hpp"
#include "host/check.hpp"
#include "host/data.hpp"
#include "host/device.hpp"
#include "host/device_buffer.hpp"
#include "host/host_memory.hpp"
#include "host/mode_options.hpp"
#include "host/multi_device.hpp"
#include "host/report.hpp"
#include "host/sizes.hpp"
#include "host/verify.hpp"
#include "measure.hpp"
#include "model.hpp"
#include "nccl_check.hpp"
#include "sweep_report.hpp"

namespace stepwise::multigpu {
namespace {

constexpr std::uint64_t kSweepLargest = std::uint64_t{1} << 30;

const char* type_name(TypeOption type) { return type == TypeOption::float32 ? "float32" : "int32"; }

/// Pinned host memory, freed with cudaFreeHost.
struct PinnedDeleter {
  void operator()(void* pointer) const noexcept { cudaFreeHost(pointer); }
};
using Pinned = std::unique_ptr<void, PinnedDeleter>;

Pinned allocate_pinned(std::size_t bytes) {
  void* pointer = nullptr;
  STEPWISE_CUDA_CHECK(cudaHostAlloc(&pointer, std::max<std::size_t>(bytes, 1), cudaHostAllocPortable));
  return Pinned(pointer);
}

/// Whatever the selected rows need beyond the buffers, for every size of the run.
struct Needs {
  bool host_staging = false;
  bool root_gather = false;
  bool comms = false;
  int max_slices = 1;
};

/// The ring rows' step events, G x max_slices, each created on its GPU.
class StepEvents {
 public:
  StepEvents(int gpus, int slices) {
    for (int g = 0; g < gpus; ++g) {
      ScopedDevice device(g);
      for (int s = 0; s < slices; ++s) {
        cudaEvent_t event = nullptr;
        STEPWISE_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
        events_.push_back(event);
        owners_.push_back(g);
      }
    }
  }
  ~StepEvents() {
    for (std::size_t i = 0; i < events_.size(); ++i) {
      cudaSetDevice(owners_[i]);
      cudaEventDestroy(events_[i]);
    }
  }
  StepEvents(const StepEvents&) = delete;
  StepEvents& operator=(const StepEvents&) = delete;
  const std::vector<cudaEvent_t>& events() const { return events_; }

 private:
  std::vector<cudaEvent_t> events_;
  std::vector<int> owners_;
};

/// Enables peer access between every pair of the team's GPUs that allows it; true when every GPU
/// can read both of its ring neighbours. Adds a note saying which pairs could.
bool enable_peer_access(const DeviceTeam& team, std::vector<std::string>& notes) {
  const int gpus = team.size();
  if (gpus == 1) return true;
  std::vector<std::vector<bool>> can(static_cast<std::size_t>(gpus), std::vector<bool>(static_cast<std::size_t>(gpus)));
  std::ostringstream pairs;
  int without = 0;
  for (int g = 0; g < gpus; ++g) {
    ScopedDevice device(g);
    for (int h = 0; h < gpus; ++h) {
      if (h == g) continue;
      int allowed = 0;
      STEPWISE_CUDA_CHECK(cudaDeviceCanAccessPeer(&allowed, g, h));
      can[static_cast<std::size_t>(g)][static_cast<std::size_t>(h)] = allowed != 0;
      if (allowed == 0) {
        ++without;
        pairs << " " << g << "->" << h;
        continue;
      }
      const cudaError_t result = cudaDeviceEnablePeerAccess(h, 0);
      if (result == cudaErrorPeerAccessAlreadyEnabled)
        cudaGetLastError();  // clears the error the runtime recorded for it, so no later check reports it
      else
        STEPWISE_CUDA_CHECK(result);
    }
  }
  notes.push_back(without == 0 ? "peer access (cudaDeviceCanAccessPeer): every pair of GPUs, enabled"
                               : "peer access (cudaDeviceCanAccessPeer): not between" + pairs.str());
  bool ring = true;
  for (int g = 0; g < gpus; ++g) {
    const int left = (g + gpus - 1) % gpus;
    const int right = (g + 1) % gpus;
    ring = ring && can[static_cast<std::size_t>(g)][static_cast<std::size_t>(left)] &&
           can[static_cast<std::size_t>(g)][static_cast<std::size_t>(right)];
  }
  return ring;
}

/// The data of one all-reduce of n elements per GPU: every GPU's input and output (with guard
/// zones), the workspace the selected rows need, and the CPU reference.
template <class T>
class AllReduceProblem {
 public:
  AllReduceProblem(const DeviceTeam& team, std::size_t n, std::uint64_t seed, const Needs& needs,
                   const std::vector<cudaEvent_t>& events, const std::vector<ncclComm_t>& comms, bool peer)
      : team_(team) {
    const int gpus = team.size();
    for (int g = 0; g < gpus; ++g) {
      // Random in every GPU's own stream, never all zeros or ones; int32 over its whole range, so that sums wrap.
      const std::uint64_t gpu_seed = seed + 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(g + 1);
      if constexpr (std::is_same_v<T, float>)
        inputs_.push_back(random_floats(n, gpu_seed, -1.0f, 1.0f));
      else
        inputs_.push_back(random_ints(n, gpu_seed, std::numeric_limits<std::int32_t>::min(),
                                      std::numeric_limits<std::int32_t>::max()));
      ScopedDevice device(g);
      in_.emplace_back(inputs_.back());
      out_.emplace_back(n);
    }
    if constexpr (std::is_same_v<T, float>)
      allreduce_on_cpu(inputs_, sums_, scales_);
    else
      exact_ = allreduce_on_cpu(inputs_);
    ops_.team = &team;
    ops_.type = std::is_same_v<T, float> ? Element::float32 : Element::int32;
    ops_.n = n;
    for (int g = 0; g < gpus; ++g) {
      ops_.in.push_back(in_[static_cast<std::size_t>(g)].data());
      ops_.out.push_back(out_[static_cast<std::size_t>(g)].data());
    }
    if (needs.host_staging) {
      for (int g = 0; g <= gpus; ++g) {
        staging_.push_back(allocate_pinned(n * sizeof(T)));
        ops_.host_staging.push_back(staging_.back().get());
      }
    }
    if (needs.root_gather && gpus > 1) {
      ScopedDevice device(0);
      gather_ = DeviceBuffer<T>(static_cast<std::size_t>(gpus - 1) * n);
      ops_.root_gather = gather_.data();
    }
    ops_.step_events = events;
    ops_.max_slices = needs.max_slices;
    ops_.comms = comms;
    ops_.peer_access = peer;
    team.synchronize();
  }

  const AllReduceOperands& operands() const { return ops_; }

  /// Poisons every GPU's output.
  void poison_outputs() {
    for (int g = 0; g < team_.size(); ++g) {
      ScopedDevice device(g);
      poison(out_[static_cast<std::size_t>(g)]);
    }
    for (int g = 0; g < team_.size(); ++g) {
      ScopedDevice device(g);
      STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
    }
  }

  /// Every GPU's output against the reference, then every guard zone.
  Check check_outputs() {
    team_.synchronize();
    const double tolerance = float_tolerance(team_.size());
    for (int g = 0; g < team_.size(); ++g) {
      ScopedDevice device(g);
      const std::vector<T> got = out_[static_cast<std::size_t>(g)].download();
      Check check;
      if constexpr (std::is_same_v<T, float>)
        check = compare_within(got, sums_, scales_, tolerance);
      else
        check = compare_exact(got, exact_);
      if (!check.passed) return {false, "GPU " + std::to_string(g) + ": " + check.detail};
    }
    return check_guard_zones();
  }

 private:
  const DeviceTeam& team_;
  std::vector<std::vector<T>> inputs_;
  std::vector<double> sums_;
  std::vector<double> scales_;
  std::vector<T> exact_;
  std::vector<DeviceBuffer<T>> in_;
  std::vector<DeviceBuffer<T>> out_;
  std::vector<Pinned> staging_;
  DeviceBuffer<T> gather_;
  AllReduceOperands ops_;
};

int resolved_gpus(const Plan& plan) { return plan.gpus > 0 ? plan.gpus : visible_device_count(); }

template <class T>
int run_typed(Session& session, const Plan& plan) {
  const CommonOptions& options = session.options();
  const int gpus = resolved_gpus(plan);
  require_gpus(plan, visible_device_count());
  // NVLink SHARP (multicast objects) stays off unless the environment already chose.
  setenv("NCCL_NVLS_ENABLE", "0", 0);

  std::vector<AllReduceStage> rows;
  Needs needs;
  for (const AllReduceStage& stage : allreduce_stages()) {
    if (!options.selects(stage.name)) continue;
    rows.push_back(stage);
    needs.host_staging = needs.host_staging || stage.traits.needs_host_staging;
    needs.root_gather = needs.root_gather || stage.traits.needs_root_gather;
    needs.comms = needs.comms || stage.traits.needs_comms;
    needs.max_slices = std::max(needs.max_slices, stage.traits.max_slices);
  }

  SweepReport report;
  report.chapter_title = "all-reduce across the GPUs of one process";
  report.gpus = gpus;
  report.element_type = type_name(plan.type);
  report.command = options.command;
  report.date = today_iso();
  report.seed = options.seed;
  report.reps = options.reps;
  for (int g = 0; g < gpus; ++g) report.devices.push_back(describe_device(g).name);
  if (gpus == 1) report.notes.push_back("one GPU: the all-reduce is a copy of its input, nothing travels (degenerate)");
  report.notes.push_back("L2 is not flushed between repetitions (as in nccl-tests)");
  if (options.sweep)
    report.notes.push_back("--sweep: no row lists launch shapes to try; --size-sweep sweeps the sizes");
  if (std::getenv("NCCL_ALGO") != nullptr)
    report.notes.push_back(std::string("NCCL_ALGO=") + std::getenv("NCCL_ALGO") + " (read once, by ncclCommInitAll)");

  DeviceTeam team(gpus);
  TeamTimer timer(team);
  if (!timer.holds_streams())
    report.notes.push_back("launches are synchronous here (a tool?): the streams are not held, times include launches");
  const bool peer = enable_peer_access(team, report.notes);
  const StepEvents events(gpus, needs.max_slices);
  std::unique_ptr<Communicators> comms;
  if (needs.comms) comms = std::make_unique<Communicators>(gpus);
  const std::vector<ncclComm_t> no_comms;

  int exit_code = kExitOk;
  for (const std::uint64_t bytes : plan.sizes) {
    const std::size_t n = static_cast<std::size_t>(bytes / kElementBytes);
    const double per_gpu = 2.0 * static_cast<double>(bytes);
    const double root = per_gpu + (needs.root_gather ? (gpus - 1.0) * static_cast<double>(bytes) : 0.0);
    session.require_device_bytes(root, "--bytes " + format_bytes(static_cast<double>(bytes)) + " on GPU 0");
    AllReduceProblem<T> problem(team, n, options.seed, needs, events.events(), comms ? comms->comms() : no_comms, peer);
    for (const AllReduceStage& stage : rows) {
      if (stage.traits.needs_peer_access && !peer) {
        if (bytes == plan.sizes.front())
          report.notes.push_back(stage.name +
                                 " left out: it reads its ring neighbours' memory, and peer access is not "
                                 "available between them");
        continue;
      }
      const RowWork work{[&] { stage.launch(problem.operands(), stage.shape); }, [&] { problem.poison_outputs(); },
                         [&] { return problem.check_outputs(); }};
      report.rows.push_back(measure(stage, team, timer, options, Flush::none, bytes, n, work, report.notes));
      if (report.rows.back().verdict != Verdict::pass) exit_code = kExitFailed;
    }
  }
  emit_sweep(report, options);
  return exit_code;
}

/// What --analyze prints: for each row, at each size, the bytes the busiest GPU sends and
/// receives, the steps, and the alpha-beta prediction for --gpus GPUs; with --format json, the
/// same and the diagrams' data (analysis.hpp).
std::string analyze(const Plan& plan, const CommonOptions& options) {
  if (options.format == Format::json) return analysis_json(plan, options);
  const int gpus = plan.gpus > 0 ? plan.gpus : kAnalyzedGpus;
  std::ostringstream out;
  if (plan.gpus == 0) out << "--gpus not given: the model of " << kAnalyzedGpus << " GPUs\n";
  if (plan.problem != ProblemKind::allreduce)
    return out.str() + analyze_distributed(plan, static_cast<std::size_t>(options.n), gpus);
  out << "all-reduce of " << type_name(plan.type) << " on " << gpus << " GPU" << (gpus == 1 ? "" : "s")
      << ": busbw factor 2(G-1)/G = " << format_fixed(allreduce_bus_factor(gpus), 3) << "\n";
  out << "model: time = steps x alpha + max(sent, received) / beta, alpha = " << format_fixed(plan.alpha_us, 2)
      << " us, beta = " << format_fixed(plan.beta_gbps, 1) << " GB/s (--alpha-us, --beta-gbps: inputs, not measured)\n";
  out << "    #  stage            traffic          bytes/GPU      sent/GPU  received/GPU  steps  predicted (us)\n";
  for (const std::uint64_t bytes : plan.sizes) {
    for (const AllReduceStage& stage : allreduce_stages()) {
      const int slices = slices_for(stage.traits, bytes / kElementBytes, gpus, kElementBytes);
      const TrafficCount count = traffic_of(stage.traits.traffic, static_cast<double>(bytes), gpus, slices);
      const double seconds = predicted_seconds(count, plan.alpha_us * 1e-6, plan.beta_gbps * 1e9);
      out << std::setw(5) << (stage.number == 0 ? std::string("lib") : std::to_string(stage.number)) << "  "
          << std::left << std::setw(15) << stage.name << "  " << std::setw(15) << to_string(stage.traits.traffic)
          << std::right << std::setw(11) << format_bytes(static_cast<double>(bytes)) << std::setw(14)
          << format_bytes(count.sent) << std::setw(14) << format_bytes(count.received) << std::setw(7) << count.steps
          << std::setw(16) << format_fixed(seconds * 1e6, 2) << "\n";
    }
  }
  return out.str();
}

/// Parses --bytes: a count of bytes (parse_count's forms), at least one element, whole elements.
void check_bytes(const std::string& text) {
  const std::uint64_t bytes = parse_count(text);
  if (bytes < kElementBytes || bytes % kElementBytes != 0)
    throw std::invalid_argument(text + ": a positive multiple of the 4-byte element");
  if (bytes > kSweepLargest) throw std::invalid_argument(text + ": at most 1 GiB per GPU");
}

}  // namespace

void require_gpus(const Plan& plan, int visible) {
  if (visible > 0 && plan.gpus > visible)
    throw UsageError("--gpus " + std::to_string(plan.gpus) + ": only " + std::to_string(visible) + " GPU(s) visible");
}

Chapter<Plan> chapter() {
  Chapter<Plan> spec;
  spec.info = [](const Plan& plan) {
    const char* reference = plan.problem == ProblemKind::scan ? "the inclusive sum in order on the host"
                            : plan.problem == ProblemKind::sort
                                ? "std::sort of every key on the host"
                                : "the element-wise sum of every GPU's input on the host";
    return ChapterInfo{"11",
                       "multigpu",
                       "many GPUs: all-reduce from host-staged to a pipelined ring, beside NCCL",
                       std::uint64_t{1} << 26,
                       1,
                       reference};
  };
  spec.add_options = [](ChapterCli& cli, Plan& plan) {
    cli.app()
        .add_option("--problem", plan.problem,
                    "allreduce (sum; --n per GPU), scan (inclusive sum) or sort (uint32 keys): --n in all")
        ->transform(CLI::CheckedTransformer(std::map<std::string, ProblemKind>{
            {"allreduce", ProblemKind::allreduce}, {"scan", ProblemKind::scan}, {"sort", ProblemKind::sort}}))
        ->default_str("allreduce");
    cli.app()
        .add_option("--type", plan.type, "Element type: float32 or int32 (wrapping sum)")
        ->transform(CLI::CheckedTransformer(
            std::map<std::string, TypeOption>{{"float32", TypeOption::float32}, {"int32", TypeOption::int32}}))
        ->default_str("float32");
    cli.app()
        .add_option("--gpus", plan.gpus, "Use the first K visible GPUs (default: all of them)")
        ->transform(decimal_in(1, 1024));
    cli.app()
        .add_option_function<std::string>(
            "--bytes", [&plan](const std::string& text) { plan.bytes = parse_count(text); },
            "Bytes per GPU (in place of --n elements per GPU); with --size-sweep, the largest size")
        ->transform(parsed_by(check_bytes, "BYTES"))
        ->excludes(cli.option("--n"));
    cli.app()
        .add_option("--samples", plan.samples,
                    "--problem sort: regular samples each GPU draws for the splitters (default 64)")
        ->transform(decimal_in(1, kMaxSamples));
    cli.app()
        .add_option("--keys", plan.keys,
                    "--problem sort: uniform, few (16 distinct), sorted or equal (one non-zero key) (default uniform)")
        ->transform(CLI::CheckedTransformer(std::map<std::string, KeysOption>{{"uniform", KeysOption::uniform},
                                                                              {"few", KeysOption::few},
                                                                              {"sorted", KeysOption::sorted},
                                                                              {"equal", KeysOption::equal}}));
    cli.add_flag("--size-sweep", plan.size_sweep, "Run 8 B, 32 B, ... x4 ... up to 1 GiB per GPU (or --bytes)")
        ->excludes(cli.option("--n"));
    // --analyze's model inputs: plain decimals in range, meaningful only beside --analyze.
    const auto model_input = [&cli](const std::string& name, double& field, const std::string& help, double lo,
                                    double hi) {
      return cli.app().add_option(name, field, help)->check(real_in(lo, hi))->needs(cli.option("--analyze"));
    };
    model_input("--alpha-us", plan.alpha_us, "--analyze's model: the fixed cost of one step, microseconds", 0.0, 1e6)
        ->capture_default_str();
    model_input("--beta-gbps", plan.beta_gbps, "--analyze's model: one link's rate, GB/s", 0.001, 1e6)
        ->capture_default_str();
    model_input("--read-tbps", plan.read_tbps,
                "--analyze --problem scan: a read-only pass's rate on one GPU, TB/s, for the scan's bound (default " +
                    format_fixed(kH100ReadTbps, 2) + ", an H100's)",
                0.001, 1000.0);
    model_input("--copy-tbps", plan.copy_tbps,
                "--analyze --problem scan: a copy's rate on one GPU, bytes read and written, TB/s (default " +
                    format_fixed(kH100CopyTbps, 2) + ", an H100's)",
                0.001, 1000.0);
  };
  spec.stages = [](const Plan& plan) {
    return plan.problem == ProblemKind::allreduce ? describe(allreduce_stages())
                                                  : distributed_stage_infos(plan.problem);
  };
  spec.validate = [](Plan& plan, const CommonOptions& options) {
    if (!options.analyze) {
      if (options.format == Format::csv) throw UsageError("--format csv: this chapter prints table, markdown or json");
      // The all-reduce's repetitions always run with a warm cache, as nccl-tests' do (--warm-cache is what it
      // does anyway); the scan and the sort flush every GPU's L2 as --flush says.
      if (options.flush == "write" && plan.problem == ProblemKind::allreduce)
        throw UsageError("--flush write: the all-reduce never flushes L2 (as nccl-tests)");
    }
    plan.sizes.clear();
    if (plan.problem != ProblemKind::scan && (plan.read_tbps != 0.0 || plan.copy_tbps != 0.0))
      throw UsageError(std::string(plan.read_tbps != 0.0 ? "--read-tbps" : "--copy-tbps") +
                       ": only with --problem scan (the scan's bound)");
    if (plan.read_tbps == 0.0) plan.read_tbps = kH100ReadTbps;
    if (plan.copy_tbps == 0.0) plan.copy_tbps = kH100CopyTbps;
    if (plan.problem != ProblemKind::allreduce) {
      validate_distributed(plan, options);
      return;
    }
    if (plan.samples != 0) throw UsageError("--samples " + std::to_string(plan.samples) + ": only with --problem sort");
    if (plan.keys != KeysOption::unset) throw UsageError("--keys: only with --problem sort");
    if (plan.size_sweep) {
      plan.sizes = sweep_bytes(plan.bytes != 0 ? plan.bytes : kSweepLargest);
    } else if (plan.bytes != 0) {
      plan.sizes = {plan.bytes};
    } else {
      if (options.n * kElementBytes > kSweepLargest)
        throw UsageError("--n " + options.n_text + ": at most 2^28 elements (1 GiB) per GPU");
      plan.sizes = {options.n * kElementBytes};
    }
  };
  spec.require_host_memory = [](const Plan& plan, const CommonOptions& options) {
    // The device count first (it allocates nothing): more GPUs than visible is the error to report.
    require_gpus(plan, visible_device_count());
    if (plan.problem != ProblemKind::allreduce) {
      require_host_bytes(distributed_host_bytes(plan.problem, static_cast<std::size_t>(options.n)),
                         n_as_given(options));
      return;
    }
    const double gpus = plan.gpus > 0 ? plan.gpus : std::max(visible_device_count(), 1);
    const double largest = static_cast<double>(*std::max_element(plan.sizes.begin(), plan.sizes.end()));
    // Every GPU's input, the reference and its scales (doubles), one download, the host-staged buffers.
    const double bytes = largest * (gpus + 4.0 + 1.0 + gpus + 1.0);
    require_host_bytes(bytes, plan.bytes != 0 || plan.size_sweep
                                  ? "--bytes " + format_bytes(largest) + " on " + std::to_string(int(gpus)) + " GPUs"
                                  : n_as_given(options));
  };
  spec.analyze = {
      "Print each stage's traffic, steps and alpha-beta time for --gpus and the sizes, as text or (--format "
      "json, for tools/plot) with the ring's steps and a small sample sort's exchange, and exit (no GPU)",
      {"--n", "--format"},
      {Format::table, Format::json},
      analyze};
  spec.run = [](Session& session, const Plan& plan) {
    if (plan.problem != ProblemKind::allreduce) {
      require_gpus(plan, visible_device_count());
      setenv("NCCL_NVLS_ENABLE", "0", 0);
      const int gpus = resolved_gpus(plan);
      const std::size_t n = static_cast<std::size_t>(session.options().n);
      return plan.problem == ProblemKind::scan ? run_scan(session, plan, n, gpus) : run_sort(session, plan, n, gpus);
    }
    return plan.type == TypeOption::float32 ? run_typed<float>(session, plan) : run_typed<std::int32_t>(session, plan);
  };
  // Up to 1 GiB per GPU, the size sweep's largest.
  spec.problems = {{"allreduce float32", {}, std::uint64_t{1} << 28}};
  return spec;
}

}  // namespace stepwise::multigpu
