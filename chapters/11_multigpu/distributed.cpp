// The scan and sort problems of chapter 11: every GPU's part, the CPU reference, the checks of
// the concatenated output (each row timed by measure.hpp's loop) and the report with the speedup,
// the sample sort's bucket balance and its phases.
#include "distributed.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <limits>
#include <memory>
#include <sstream>
#include <type_traits>

#include "communicators.hpp"
#include "host/check.hpp"
#include "host/cli.hpp"
#include "host/data.hpp"
#include "host/device.hpp"
#include "host/device_buffer.hpp"
#include "host/multi_device.hpp"
#include "host/parallel.hpp"
#include "host/parallel_sort.hpp"
#include "host/report.hpp"
#include "host/sizes.hpp"
#include "host/verify.hpp"
#include "measure.hpp"
#include "model.hpp"
#include "nccl_check.hpp"
#include "sample_sort.hpp"
#include "scan.hpp"
#include "sort.hpp"
#include "sort_plan.hpp"
#include "sweep_report.hpp"

namespace stepwise::multigpu {
namespace {

/// Copies @p count values from the device pointer @p data (on the current device) to @p host.
template <class T>
void download_to(T* host, const T* data, std::size_t count) {
  if (count > 0) STEPWISE_CUDA_CHECK(cudaMemcpy(host, data, count * sizeof(T), cudaMemcpyDeviceToHost));
}

/// GPU g's part of @p all, copied to a new buffer on the current device straight from @p all.
template <class T>
DeviceBuffer<T> upload_part(const std::vector<T>& all, int gpus, int g) {
  DeviceBuffer<T> part(part_size(all.size(), gpus, g));
  if (part.size() > 0)
    STEPWISE_CUDA_CHECK(
        cudaMemcpy(part.data(), all.data() + part_begin(all.size(), gpus, g), part.bytes(), cudaMemcpyHostToDevice));
  return part;
}

/// The report's header for a run of @p gpus GPUs.
SweepReport new_report(const std::string& title, const std::string& problem, const std::string& heading,
                       const std::string& type, const CommonOptions& options, int gpus) {
  SweepReport report;
  report.chapter_title = title;
  report.problem = problem;
  report.heading = heading;
  report.gpus = gpus;
  report.element_type = type;
  report.command = options.command;
  report.date = today_iso();
  report.seed = options.seed;
  report.reps = options.reps;
  for (int g = 0; g < gpus; ++g) report.devices.push_back(describe_device(g).name);
  report.notes.push_back(
      "n is the values on all GPUs together; GPU g holds part g, the first n mod G parts one longer");
  report.notes.push_back("the bytes/GPU and n/GPU columns hold the whole problem (all n values)");
  report.notes.push_back(options.flush == "none"
                             ? "L2 is not flushed between repetitions (--warm-cache)"
                             : "every GPU's L2 is flushed before each repetition (--flush " + options.flush + ")");
  return report;
}

/// The bytes of the buffer each GPU's L2 flush reads or writes (TeamTimer's L2Flusher), 0 with --warm-cache.
double flush_bytes(const Session& session) {
  return session.timing().flush == Flush::none
             ? 0.0
             : static_cast<double>(L2Flusher::buffer_bytes(session.device().l2_bytes));
}

/// "x.xx x the library row" notes: each passing distributed row's speedup over the one-GPU row.
void add_speedups(SweepReport& report, const std::string& library, int gpus) {
  const Measurement* base = nullptr;
  for (const Measurement& row : report.rows)
    if (row.stage == library && row.time) base = &row;
  if (base == nullptr) return;
  for (const Measurement& row : report.rows)
    if (row.kind == RowKind::kernel && row.time)
      report.notes.push_back(row.stage + " on " + std::to_string(gpus) +
                             " GPU(s): " + format_fixed(base->time->median_ms / row.time->median_ms, 2) + "x " +
                             library + " (median times)");
}

/// The float tolerance of a scan value: chained float sums err by at most their length times
/// u = 2^-24 times the sum of the magnitudes; a value of the single-pass scan is the end of a
/// chain of at most (its tile's position) + 64 additions (the tiles' prefixes, then the block and
/// the thread), and of G more for the offset. The chain is cut at tiles of 1024 values for CUB.
double scan_error_factor(std::size_t i, int gpus) {
  return static_cast<double>(i / 1024 + 64 + static_cast<std::size_t>(gpus)) * std::ldexp(1.0, -24);
}

/// The data of one scan: the input, its reference, every GPU's part and GPU 0's whole array.
template <class Op>
class ScanProblem {
 public:
  using T = typename Op::value_type;

  ScanProblem(const DeviceTeam& team, const std::vector<ncclComm_t>& comms, std::size_t n, std::uint64_t seed,
              bool whole)
      : team_(team), n_(n) {
    if constexpr (std::is_same_v<T, float>)
      input_ = random_floats(n, seed, 0.0f, 1.0f);  // positive: a lost offset is about its part's size
    else
      input_ = random_ints(n, seed, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max());
    reference();
    const int gpus = team.size();
    memory_ = make_scan_memory<Op>(n, gpus);
    ops_.team = &team;
    ops_.comms = comms;
    ops_.n = n;
    ops_.memory = &memory_;
    for (int g = 0; g < gpus; ++g) {
      const ScopedDevice device(g);
      in_.push_back(upload_part(input_, gpus, g));
      out_.emplace_back(part_size(n, gpus, g));
      ops_.in.push_back(in_.back().data());
      ops_.out.push_back(out_.back().data());
    }
    if (whole) {
      const ScopedDevice device(0);
      whole_in_ = DeviceBuffer<T>(input_);
      whole_out_ = DeviceBuffer<T>(n);
      ops_.whole_in = whole_in_.data();
      ops_.whole_out = whole_out_.data();
    }
    team.synchronize();
  }

  const ScanOperands<Op>& operands() const { return ops_; }

  void poison_outputs() {
    for (int g = 0; g < team_.size(); ++g) {
      const ScopedDevice device(g);
      poison(out_[static_cast<std::size_t>(g)]);
      if (g == 0 && whole_out_.size() > 0) poison(whole_out_);
      STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
    }
  }

  /// The concatenated parts (or GPU 0's whole array, for the one-GPU row) against the reference.
  /// Every check downloads into the same host array, whose pages are mapped after the first.
  Check check_outputs(bool whole) {
    got_.resize(n_);
    if (whole) {
      const ScopedDevice device(0);
      whole_out_.download_into(got_);
    } else {
      for (int g = 0; g < team_.size(); ++g) {
        const ScopedDevice device(g);
        out_[static_cast<std::size_t>(g)].download_to(got_.data() + part_begin(n_, team_.size(), g));
      }
    }
    Check check;
    if constexpr (std::is_same_v<T, float>)
      check = compare_within(got_, sums_, scales_, 1.0);
    else
      check = compare_exact(got_, exact_);
    if (!check.passed) return check;
    return check_guard_zones();
  }

 private:
  void reference() {
    if constexpr (std::is_same_v<T, float>) {
      sums_.resize(n_);
      scales_.resize(n_);
      double sum = 0.0;
      double scale = 0.0;
      for (std::size_t i = 0; i < n_; ++i) {
        sum += input_[i];
        scale += std::fabs(static_cast<double>(input_[i]));
        sums_[i] = sum;
        scales_[i] = scale * scan_error_factor(i, team_.size());
      }
    } else {
      exact_.resize(n_);
      parallel_inclusive_scan_on_cpu<Op>(input_.data(), exact_.data(), n_);
    }
  }

  const DeviceTeam& team_;
  std::size_t n_;
  std::vector<T> input_;
  std::vector<T> exact_;
  std::vector<T> got_;  ///< the last check's download
  std::vector<double> sums_;
  std::vector<double> scales_;
  std::vector<ScanGpuMemory> memory_;
  std::vector<DeviceBuffer<T>> in_;
  std::vector<DeviceBuffer<T>> out_;
  DeviceBuffer<T> whole_in_;
  DeviceBuffer<T> whole_out_;
  ScanOperands<Op> ops_;
};

template <class Op>
int run_scan_typed(Session& session, const Plan& plan, std::size_t n, int gpus) {
  using T = typename Op::value_type;
  const CommonOptions& options = session.options();
  const std::string type = std::is_same_v<T, float> ? "float32" : "int32";
  SweepReport report =
      new_report("inclusive scan across the GPUs of one process", "scan", "inclusive scan (sum)", type, options, gpus);
  std::vector<ScanStage<Op>> rows;
  bool whole = false;
  for (const ScanStage<Op>& stage : scan_stages<Op>()) {
    if (!options.selects(stage.name)) continue;
    rows.push_back(stage);
    whole = whole || stage.traits.one_gpu;
  }
  // GPU 0 holds its part, its output, with the one-GPU row all n values twice, and the flush's buffer.
  const double gpu0 =
      2.0 * sizeof(T) * (static_cast<double>(part_size(n, gpus, 0)) + (whole ? n : 0.0)) + flush_bytes(session);
  session.require_device_bytes(gpu0, "--n " + options.n_text + " on GPU 0");
  DeviceTeam team(gpus);
  TeamTimer timer(team);
  const Communicators comms(gpus);
  ScanProblem<Op> problem(team, comms.comms(), n, options.seed, whole);
  int exit_code = kExitOk;
  for (const ScanStage<Op>& stage : rows) {
    const RowWork work{[&] { stage.launch(problem.operands(), stage.shape); }, [&] { problem.poison_outputs(); },
                       [&] { return problem.check_outputs(stage.traits.one_gpu); }};
    report.rows.push_back(
        measure(stage, team, timer, options, session.timing().flush, n * sizeof(T), n, work, report.notes));
    if (report.rows.back().verdict != Verdict::pass) exit_code = kExitFailed;
  }
  (void)plan;
  add_speedups(report, cub_scan_one_gpu<Op>().name, gpus);
  emit_sweep(report, options);
  return exit_code;
}

/// @p keys sorted on every host core (parallel_sort).
std::vector<std::uint32_t> sorted_on_cpu(std::vector<std::uint32_t> keys) {
  parallel_sort(keys);
  return keys;
}

/// The keys of --keys: uniform 32-bit words, 16 distinct ones, uniform ones sorted, or one non-zero key.
std::vector<std::uint32_t> make_sort_keys(std::size_t n, std::uint64_t seed, KeysOption kind) {
  const std::vector<std::int32_t> bits =
      random_ints(n, seed, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max());
  std::vector<std::uint32_t> keys(n);
  for_each_range(n, kHostChunk, [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) {
      const std::uint32_t word = static_cast<std::uint32_t>(bits[i]);
      keys[i] = kind == KeysOption::few     ? 0x01000193u * (1u + word % 16u)
                : kind == KeysOption::equal ? 0x9e3779b9u
                                            : word;
    }
  });
  if (kind == KeysOption::sorted) keys = sorted_on_cpu(std::move(keys));
  return keys;
}

/// The name of @p kind as --keys spells it.
const char* keys_name(KeysOption kind) {
  switch (kind) {
    case KeysOption::few:
      return "few";
    case KeysOption::sorted:
      return "sorted";
    case KeysOption::equal:
      return "equal";
    default:
      return "uniform";
  }
}

/// The data of one sort: the keys, their sorted copy, every GPU's part and GPU 0's whole array.
class SortProblem {
 public:
  SortProblem(const DeviceTeam& team, const std::vector<ncclComm_t>& comms, std::size_t n, std::uint64_t seed,
              int samples, KeysOption kind, bool whole)
      : team_(team), workspace_(n, team.size(), samples), keys_(make_sort_keys(n, seed, kind)) {
    sorted_ = sorted_on_cpu(keys_);
    const int gpus = team.size();
    ops_.team = &team;
    ops_.comms = comms;
    ops_.n = n;
    ops_.workspace = &workspace_;
    ops_.outcome = &outcome_;
    for (int g = 0; g < gpus; ++g) {
      const ScopedDevice device(g);
      parts_.push_back(upload_part(keys_, gpus, g));
      ops_.parts.push_back(parts_.back().data());
    }
    if (whole) {
      const ScopedDevice device(0);
      whole_in_ = DeviceBuffer<std::uint32_t>(keys_);
      whole_out_ = DeviceBuffer<std::uint32_t>(n);
      ops_.whole_in = whole_in_.data();
      ops_.whole_out = whole_out_.data();
    }
    team.synchronize();
  }

  const SortOperands& operands() const { return ops_; }
  const SortOutcome& outcome() const { return outcome_; }
  SortWorkspace& workspace() { return workspace_; }

  void poison_outputs() {
    for (int g = 0; g < team_.size(); ++g) {
      const ScopedDevice device(g);
      poison(workspace_.memory(g).received);
      poison(workspace_.memory(g).merged);
      if (g == 0 && whole_out_.size() > 0) poison(whole_out_);
      STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
    }
  }

  /// The GPUs' outputs, concatenated in GPU order, against the sorted keys. Every check
  /// downloads into the same host array, whose pages are mapped after the first.
  Check check_outputs() {
    std::size_t total = 0;
    for (std::size_t g = 0; g < outcome_.outputs.size(); ++g) total += outcome_.plan.recv_totals[g];
    got_.resize(total);
    std::size_t at = 0;
    for (std::size_t g = 0; g < outcome_.outputs.size(); ++g) {
      const ScopedDevice device(static_cast<int>(g));
      download_to(got_.data() + at, outcome_.outputs[g], outcome_.plan.recv_totals[g]);
      at += outcome_.plan.recv_totals[g];
    }
    const Check check = compare_exact(got_, sorted_);
    if (!check.passed) return check;
    return check_guard_zones();
  }

 private:
  const DeviceTeam& team_;
  SortWorkspace workspace_;
  std::vector<std::uint32_t> keys_;
  std::vector<std::uint32_t> sorted_;
  std::vector<std::uint32_t> got_;  ///< the last check's download
  SortOutcome outcome_;
  std::vector<DeviceBuffer<std::uint32_t>> parts_;
  DeviceBuffer<std::uint32_t> whole_in_;
  DeviceBuffer<std::uint32_t> whole_out_;
  SortOperands ops_;
};

}  // namespace

void validate_distributed(Plan& plan, const CommonOptions& options) {
  const std::string problem = plan.problem == ProblemKind::scan ? "scan" : "sort";
  if (plan.bytes != 0 || plan.size_sweep)
    throw UsageError(std::string(plan.bytes != 0 ? "--bytes" : "--size-sweep") + ": --problem " + problem +
                     " takes --n, the values on all GPUs together");
  if (options.analyze) {
    if (plan.problem == ProblemKind::sort && plan.samples == 0) plan.samples = kDefaultSamples;
    return;
  }
  if (options.sweep) throw UsageError("--sweep: this chapter's stages have no shapes to sweep");
  if (options.format == Format::csv) throw UsageError("--format csv: this chapter prints table, markdown or json");
  if (options.n < 1 || options.n > kMaxDistributedN)
    throw UsageError("--n " + options.n_text + ": --problem " + problem + " takes 1 to 2^32 values in all");
  if (plan.problem == ProblemKind::scan && plan.samples != 0)
    throw UsageError("--samples " + std::to_string(plan.samples) + ": only with --problem sort");
  if (plan.problem == ProblemKind::scan && plan.keys != KeysOption::unset)
    throw UsageError("--keys: only with --problem sort");
  if (plan.problem == ProblemKind::sort && plan.samples == 0) plan.samples = kDefaultSamples;
}

std::vector<StageInfo> distributed_stage_infos(ProblemKind problem) {
  if (problem == ProblemKind::scan) return describe(scan_stages<WrappingSum>());
  return describe(sort_stages());
}

int run_scan(Session& session, const Plan& plan, std::size_t n, int gpus) {
  return plan.type == TypeOption::float32 ? run_scan_typed<FloatSum>(session, plan, n, gpus)
                                          : run_scan_typed<WrappingSum>(session, plan, n, gpus);
}

int run_sort(Session& session, const Plan& plan, std::size_t n, int gpus) {
  const CommonOptions& options = session.options();
  SweepReport report =
      new_report("sample sort across the GPUs of one process", "sort", "sort", "uint32", options, gpus);
  std::vector<SortStage> rows;
  bool whole = false;
  for (const SortStage& stage : sort_stages()) {
    if (!options.selects(stage.name)) continue;
    rows.push_back(stage);
    whole = whole || stage.traits.one_gpu;
  }
  const double gpu0 = static_cast<double>(sample_sort_device_bytes(n, gpus, plan.samples, 0, 0) +
                                          (whole ? 2 * n * sizeof(std::uint32_t) : 0)) +
                      flush_bytes(session);
  session.require_device_bytes(gpu0, "--n " + options.n_text + " on GPU 0 (each GPU keeps room to receive all n keys)");
  DeviceTeam team(gpus);
  TeamTimer timer(team);
  const Communicators comms(gpus);
  SortProblem problem(team, comms.comms(), n, options.seed, plan.samples, plan.keys, whole);
  report.notes.push_back(std::string("keys: ") + keys_name(plan.keys) + " (--keys)");
  int exit_code = kExitOk;
  for (const SortStage& stage : rows) {
    const RowWork work{[&] { stage.launch(problem.operands(), stage.shape); }, [&] { problem.poison_outputs(); },
                       [&] { return problem.check_outputs(); }};
    report.rows.push_back(
        measure(stage, team, timer, options, session.timing().flush, n * sizeof(std::uint32_t), n, work, report.notes));
    if (report.rows.back().verdict != Verdict::pass) {
      exit_code = kExitFailed;
      continue;
    }
    if (stage.traits.one_gpu) continue;
    // The last repetition's phases and buckets.
    const std::vector<SortPhaseInfo>& infos = stage.traits.phases;
    const std::vector<double> phases = problem.workspace().phase_ms(static_cast<int>(infos.size()));
    double total = 0.0;
    double communication = 0.0;
    for (std::size_t phase = 0; phase < infos.size(); ++phase) {
      total += phases[phase];
      if (infos[phase].communicates) communication += phases[phase];
    }
    auto share = [&](double ms) { return format_fixed(total > 0 ? 100.0 * ms / total : 0.0, 1); };
    std::ostringstream line;
    line << stage.name << ": buckets max/mean " << format_fixed(load_balance(problem.outcome().plan), 3)
         << "; phases (slowest GPU, last repetition):";
    for (std::size_t phase = 0; phase < infos.size(); ++phase)
      line << " " << infos[phase].name << " " << format_fixed(phases[phase], 3) << " ms (" << share(phases[phase])
           << " %)" << (phase + 1 < infos.size() ? "," : "");
    line << "; the phases that communicate " << share(communication) << " %";
    report.notes.push_back(line.str());
  }
  add_speedups(report, cub_radix_sort_one_gpu().name, gpus);
  emit_sweep(report, options);
  return exit_code;
}

namespace {

/// Each phase of the scan or the sort with the most bytes any GPU sends or receives in it (the
/// phase's busiest GPU, which the slowest-GPU timing waits for).
std::vector<PhaseBytes> busiest_phases(const Plan& plan, std::size_t n, int gpus) {
  const bool scan = plan.problem == ProblemKind::scan;
  std::vector<PhaseBytes> busiest;
  for (int g = 0; g < gpus; ++g) {
    const std::vector<PhaseBytes> phases = scan ? scan_traffic(n, 4, gpus, g) : sort_traffic(n, gpus, plan.samples, g);
    if (busiest.empty()) busiest.assign(phases.size(), PhaseBytes{});
    for (std::size_t p = 0; p < phases.size(); ++p) {
      busiest[p].phase = phases[p].phase;
      busiest[p].sent = std::max(busiest[p].sent, phases[p].sent);
      busiest[p].received = std::max(busiest[p].received, phases[p].received);
    }
  }
  return busiest;
}

}  // namespace

std::string analyze_distributed(const Plan& plan, std::size_t n, int gpus) {
  std::ostringstream out;
  const bool scan = plan.problem == ProblemKind::scan;
  const std::size_t value_bytes = 4;
  out << (scan ? "scan" : "sample sort") << " of " << n << " "
      << (scan ? (plan.type == TypeOption::float32 ? "float32" : "int32") : "uint32") << " values on " << gpus << " GPU"
      << (gpus == 1 ? "" : "s");
  if (!scan) out << ", " << plan.samples << " samples per GPU";
  out << "\n";
  if (scan) {
    out << "device memory traffic per GPU (GPU g's part, about n/G values):\n";
    for (const ScanStage<WrappingSum>& stage : scan_stages<WrappingSum>()) {
      const double values = stage.traits.one_gpu ? static_cast<double>(n) : static_cast<double>(part_size(n, gpus, 0));
      out << "  " << std::left << std::setw(26) << stage.name << std::right << std::setw(12)
          << format_bytes(values * value_bytes * stage.traits.accesses) << "  (" << stage.traits.accesses
          << " accesses of 4 B a value" << (stage.traits.one_gpu ? ", GPU 0 alone)" : ")") << "\n";
    }
    const double least = scan_least_seconds(n, gpus, value_bytes, plan.read_tbps * 1e12, plan.copy_tbps * 1e12);
    const double one_gpu = scan_least_seconds(n, 1, value_bytes, plan.read_tbps * 1e12, plan.copy_tbps * 1e12);
    out << "the least time of any schedule (equal parts; R = " << format_fixed(plan.read_tbps, 2)
        << " TB/s a read-only pass, C = " << format_fixed(plan.copy_tbps, 2)
        << " TB/s a copy: --read-tbps, --copy-tbps, inputs, not measured):\n";
    if (gpus == 1)
      out << "  1 GPU: n x 8 B / C = " << format_fixed(least * 1e3, 4) << " ms\n";
    else
      out << "  " << gpus << " GPUs: (n/G x 4 B) / R + (n/G x 8 B) / C = " << format_fixed(least * 1e3, 4)
          << " ms; one GPU: n x 8 B / C = " << format_fixed(one_gpu * 1e3, 4) << " ms; at most "
          << format_fixed(one_gpu / least, 2) << "x a one-GPU scan at the copy rate\n";
  }
  out << "bytes each GPU sends and receives, per phase:\n";
  out << "  GPU  phase                            sent      received\n";
  for (int g = 0; g < gpus; ++g) {
    const std::vector<PhaseBytes> phases =
        scan ? scan_traffic(n, value_bytes, gpus, g) : sort_traffic(n, gpus, plan.samples, g);
    for (const PhaseBytes& phase : phases)
      out << std::setw(5) << g << "  " << std::left << std::setw(28) << phase.phase << std::right << std::setw(11)
          << format_bytes(static_cast<double>(phase.sent)) << std::setw(14)
          << format_bytes(static_cast<double>(phase.received)) << "\n";
  }
  if (!scan)
    out << "the buckets' exchange depends on the keys: the counts above are for keys spread evenly; a GPU may "
           "receive up to all n keys, and each keeps room for them\n";
  out << "model: a phase takes alpha + max(sent, received) / beta on the busiest GPU, alpha = "
      << format_fixed(plan.alpha_us, 2) << " us, beta = " << format_fixed(plan.beta_gbps, 1)
      << " GB/s (--alpha-us, --beta-gbps: inputs, not measured)\n";
  out << "  phase                          predicted (us)\n";
  for (const PhaseBytes& phase : busiest_phases(plan, n, gpus)) {
    const TrafficCount count{static_cast<double>(phase.sent), static_cast<double>(phase.received), 1};
    out << "  " << std::left << std::setw(28) << phase.phase << std::right << std::setw(17)
        << format_fixed(predicted_seconds(count, plan.alpha_us * 1e-6, plan.beta_gbps * 1e9) * 1e6, 2) << "\n";
  }
  return out.str();
}

double distributed_host_bytes(ProblemKind problem, std::size_t n) {
  // scan: input, reference (float: sums and scales in double), one download; sort: keys, sorted, random bits, download
  return problem == ProblemKind::scan ? static_cast<double>(n) * (4.0 + 16.0 + 4.0)
                                      : static_cast<double>(n) * (4.0 + 4.0 + 4.0 + 4.0);
}

}  // namespace stepwise::multigpu
