#include "surface.hpp"

#include <algorithm>
#include <iostream>

#include "host/check.hpp"
#include "host/report.hpp"
#include "host/timing.hpp"
#include "problems.hpp"
#include "surface_report.hpp"

namespace stepwise::atomics {
namespace {

TimingOptions timing_of(const CommonOptions& options) {
  TimingOptions timing;
  timing.reps = options.reps;
  timing.warmup = options.warmup;
  timing.flush = options.warm_cache ? Flush::none : options.flush == "write" ? Flush::write : Flush::read;
  return timing;
}

/// One point: poison, run, check (output and guard zones), time, check again, as the harness
/// measures a row.
template <class Run>
SurfacePoint measure(Problem& problem, Run run, GpuTimer& timer, const TimingOptions& timing) {
  SurfacePoint point;
  const auto verify = [&problem]() {
    const Check output = problem.check_output();
    const Check guards = check_guard_zones();
    return output.passed ? guards : output;
  };
  try {
    problem.poison_output();
    run(nullptr);
    STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
    const Check before = verify();
    if (!before.passed) {
      point.check_detail = "before timing: " + before.detail;
      return point;
    }
    const TimingStats stats = timer.time(run, timing);
    const Check after = verify();
    if (!after.passed) {
      point.check_detail = "after timing: " + after.detail;
      return point;
    }
    point.time = stats;
  } catch (const CudaError& error) {
    if (cudaDeviceSynchronize() != cudaSuccess) throw;
    point.check_detail = error.what();
  } catch (const std::invalid_argument& error) {
    point.check_detail = std::string("the launcher refused: ") + error.what();
  }
  return point;
}

template <class Op>
void measure_op(Session& session, const Plan& plan, GpuTimer& timer, Surface& surface) {
  const std::size_t n = session.options().n;
  const HistogramRows<Op> rows = histogram_rows<Op>(n, plan.bins);
  if (!rows.left_out.empty()) surface.notes.push_back(rows.left_out);
  const auto baseline = std::find_if(rows.stages.begin(), rows.stages.end(),
                                     [](const HistogramStage<Op>& stage) { return stage.kind == RowKind::kernel; });
  for (int keys : surface_keys_per_warp()) {
    HistogramProblem<Op> problem(n, plan.bins, keys_per_warp_distribution(keys), session.options().seed,
                                 rows.workspace_bytes);
    for (const HistogramStage<Op>& stage : rows.stages) {
      // The table's first kernel row is every cell's baseline: it runs whatever --stage selects.
      if (&stage != &*baseline && !session.options().selects(stage.name)) continue;
      SurfacePoint point = measure(
          problem, [&](cudaStream_t stream) { problem.launch(stage, stage.shape, stream); }, timer,
          timing_of(session.options()));
      point.op = Op::kName;
      point.keys_per_warp = keys;
      point.number = stage.number;
      point.stage = stage.name;
      std::cerr << "surface: " << point.op << ", " << keys << " keys/warp, " << stage.name << ": "
                << (point.time ? format_fixed(point.time->median_ms, 4) + " ms" : std::string("FAIL")) << "\n";
      surface.points.push_back(point);
    }
  }
}

}  // namespace

int run_surface(Session& session, const Plan& plan) {
  const std::size_t n = session.options().n;
  const std::size_t cub_bytes =
      std::find(plan.surface_ops.begin(), plan.surface_ops.end(), OpKind::int_add) != plan.surface_ops.end()
          ? histogram_rows<IntAdd>(n, plan.bins).workspace_bytes
          : 0;
  session.require_device_bytes(device_bytes(plan, n) + static_cast<double>(cub_bytes), plan.sizes);
  GpuTimer timer(session.device().l2_bytes);
  Surface surface;
  surface.device = session.device().name;
  surface.sm = session.device().sm_name();
  surface.date = today_iso();
  surface.n = n;
  surface.bins = plan.bins;
  surface.seed = session.options().seed;
  surface.flush = session.options().warm_cache ? "none" : session.options().flush;
  surface.command = session.options().command;
  surface.notes.push_back(
      "keys per warp d: runs of 32 / d equal keys, the d runs of each aligned group of 32 keys on distinct random "
      "bins (runs:R); every point checked before and after timing");
  if (!timer.holds_stream())
    surface.notes.push_back("launches are synchronous in this process: times include launch delays");
  for (OpKind op : plan.surface_ops) {
    if (op == OpKind::float_add)
      measure_op<FloatAdd>(session, plan, timer, surface);
    else if (op == OpKind::double_cas)
      measure_op<DoubleCas>(session, plan, timer, surface);
    else
      measure_op<IntAdd>(session, plan, timer, surface);
  }
  const Format format = session.options().format;
  if (!session.options().output.empty()) {
    write_file_atomically(session.options().output, render_surface(surface, format));
    std::cout << render_surface(surface, Format::table) << std::flush;
  } else {
    std::cout << render_surface(surface, format) << std::flush;
  }
  const bool passed = std::all_of(surface.points.begin(), surface.points.end(),
                                  [](const SurfacePoint& point) { return point.time.has_value(); });
  return passed ? kExitOk : kExitFailed;
}

}  // namespace stepwise::atomics
