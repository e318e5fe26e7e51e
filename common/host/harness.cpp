#include "host/harness.hpp"

#include <algorithm>
#include <iostream>

#include "host/check.hpp"
#include "host/device_buffer.hpp"
#include "host/sizes.hpp"

namespace stepwise {

Session::Session(const ChapterCli& cli) : cli_(cli) {
  const DeviceProbe probe = probe_devices();
  switch (probe.status) {
    case DeviceStatus::ok:
      break;
    case DeviceStatus::no_driver:
    case DeviceStatus::no_device:
      throw NoDeviceError(probe.message());
    case DeviceStatus::driver_too_old:
    case DeviceStatus::error:
      throw std::runtime_error(probe.message());
  }
  if (options().device >= probe.count)
    throw UsageError("--device " + std::to_string(options().device) + ": only " + std::to_string(probe.count) +
                     " device(s) present");
  STEPWISE_CUDA_CHECK(cudaSetDevice(options().device));
  device_ = describe_device(options().device);
  timer_ = std::make_unique<GpuTimer>(device_.l2_bytes);
}

Session::~Session() = default;

TimingOptions Session::timing() const {
  TimingOptions timing;
  timing.reps = options().reps;
  timing.warmup = options().warmup;
  timing.flush = options().flush == "none" ? Flush::none : options().flush == "write" ? Flush::write : Flush::read;
  return timing;
}

double Session::memcpy_gbps() {
  if (memcpy_gbps_ == 0.0) {
    // Well above L2 (8x), so that the copy streams from DRAM even with a warm cache.
    const std::size_t bytes = std::max<std::size_t>(8 * device_.l2_bytes, std::size_t{256} << 20);
    TimingOptions timing = this->timing();
    timing.reps = std::max(timing.reps, 10);
    memcpy_gbps_ = measure_memcpy_gbps(bytes, timing, *timer_);
  }
  return memcpy_gbps_;
}

void Session::require_device_bytes(double bytes, const std::string& what) const {
  const double reserve = 64.0 * (1 << 20) + 2.0 * static_cast<double>(device_.l2_bytes);  // CUB, the flush buffer
  const double free_bytes = static_cast<double>(free_device_bytes());
  if (bytes + reserve > free_bytes)
    throw UsageError((what.empty() ? "--n " + format_count(options().n) : what) + " needs " + format_bytes(bytes) +
                     " of device memory; " + format_bytes(free_bytes) + " is free on " + device_.name);
}

Check Session::verify(Problem& problem) {
  const Check output = problem.check_output();
  const Check guards = check_guard_zones();
  if (!output.passed) return output;
  return guards;
}

ReportRow Session::measure(const Runnable& stage, const LaunchShape& shape, Problem& problem) {
  ReportRow row;
  row.kind = stage.info.kind;
  row.number = stage.info.number;
  row.name = stage.info.name;
  row.variant = stage.info.variant;
  row.matches_library = stage.info.matches_library;
  row.lesson = stage.info.lesson;
  row.shape = shape;
  const auto fail = [&row](const std::string& when, const std::string& detail) {
    row.verdict = Verdict::fail;
    row.check_detail = when + detail;
    row.time.reset();
    return row;
  };
  try {
    problem.poison_output();
    stage.run(shape, nullptr);
    STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
    const Check before = verify(problem);
    if (!before.passed) return fail("before timing: ", before.detail);  // a wrong stage is not timed
    TimingOptions timing = this->timing();
    timing.hold = !stage.info.synchronizes;
    row.time = timer_->time([&](cudaStream_t stream) { stage.run(shape, stream); }, timing);
    const Check after = verify(problem);
    if (!after.passed) return fail("after timing: ", after.detail);
  } catch (const CudaError& error) {
    // A sticky error (an illegal address, say) leaves the context unusable: stop the run.
    // Any other (a bad launch configuration) fails this row only.
    if (cudaDeviceSynchronize() != cudaSuccess) throw;
    return fail("", error.what());
  } catch (const std::invalid_argument& error) {
    return fail("the launcher refused: ", error.what());
  }
  row.verdict = Verdict::pass;
  return row;
}

LaunchShape Session::run_shape(const StageInfo& stage, std::vector<std::string>& notes) const {
  const LaunchShape sized = shape_at(stage, options().n);
  if (!options().variants || sized == stage.shape) return sized;
  notes.push_back("--variants: stage " + std::to_string(stage.number) + " runs at its default shape " +
                  describe(stage.shape) + ", not its shape for this n (" + describe(sized) +
                  "), so that each variant row differs from it by one change");
  return stage.shape;
}

ReportRow Session::sweep(const Runnable& stage, Problem& problem, std::vector<ReportRow>& failures) {
  ReportRow best;
  std::vector<SweepPoint> points;
  for (const LaunchShape& shape : stage.info.sweep) {
    const ReportRow row = measure(stage, shape, problem);
    points.push_back({shape, row.time, row.verdict, row.check_detail});
    std::cerr << "sweep: " << stage.info.number << " " << stage.info.name << " " << describe(shape) << ": "
              << (row.time ? format_fixed(row.time->median_ms, 4) + " ms" : std::string("FAIL")) << "\n";
    if (row.verdict == Verdict::fail) {
      ReportRow failed = row;
      failed.name += " (" + describe(shape) + ")";
      failures.push_back(failed);
    } else if (!best.time || row.time->median_ms < best.time->median_ms) {
      best = row;
    }
  }
  if (!best.time) {  // no shape passed: the stage's row is its first failure
    best = failures.back();
    failures.pop_back();
  }
  best.sweep = std::move(points);
  return best;
}

int Session::run_stages(const std::vector<Runnable>& stages, Problem& problem) {
  Report report;
  report.chapter_id = cli_.chapter().id;
  report.chapter_name = cli_.chapter().name;
  report.chapter_title = cli_.chapter().title;
  report.device = device_;
  report.n = problem.reported_n(options().n);
  report.element_type = problem.element_type();
  report.bytes_moved = problem.bytes_moved();
  report.flops = problem.flops();
  report.memcpy_gbps = memcpy_gbps();
  report.flush = options().flush;
  report.seed = options().seed;
  report.command = options().command;
  report.date = today_iso();
  report.sweep = options().sweep;
  report.notes = notes_;
  if (!timer_->holds_stream())
    report.notes.push_back(
        "launches are synchronous in this process (a tool such as compute-sanitizer is attached): "
        "the stream is not held while work is enqueued, so times include launch delays");

  for (const Runnable& stage : stages) {
    if (!options().selects(stage.info.name)) continue;
    if (!stage.info.variant.empty() && !options().variants) continue;
    std::vector<ReportRow> failures;
    if (options().sweep && !stage.info.sweep.empty())
      report.rows.push_back(sweep(stage, problem, failures));
    else
      report.rows.push_back(measure(stage, run_shape(stage.info, report.notes), problem));
    report.rows.insert(report.rows.end(), failures.begin(), failures.end());
  }
  if (options().selects("cpu")) {
    ReportRow row;
    row.kind = RowKind::cpu;
    row.name = "cpu reference";
    row.lesson = cli_.chapter().reference_lesson;
    row.time = time_cpu([&] { problem.run_cpu_reference(); }, std::min(options().reps, 3));
    row.verdict = Verdict::reference;
    report.rows.push_back(row);
  }
  derive_columns(report);
  publish(report);
  const bool all_passed = std::none_of(report.rows.begin(), report.rows.end(),
                                       [](const ReportRow& row) { return row.verdict == Verdict::fail; });
  return all_passed ? kExitOk : kExitFailed;
}

void Session::publish(const Report& report) const {
  const Format format = options().format;
  const Columns columns = options().columns;
  if (!options().json_output.empty())
    write_file_atomically(options().json_output, render(report, Format::json, columns));
  if (!options().output.empty()) {
    write_file_atomically(options().output, render(report, format, columns));
    std::cout << render(report, Format::table, columns) << std::flush;
    return;
  }
  std::cout << render(report, format, columns) << std::flush;
  if (format == Format::csv)
    for (const std::string& note : report.notes) std::cerr << "note: " << note << "\n";
}

int run_main(const char* program, const std::function<int()>& body) {
  try {
    return finish_stdout(program, body());
  } catch (const UsageError& error) {
    std::cerr << program << ": error: " << error.what() << "\n";
    return kExitUsage;
  } catch (const NoDeviceError& error) {
    std::cerr << program << ": skipped: " << error.what() << "\n";
    return kExitNoDevice;
  } catch (const std::exception& error) {
    std::cerr << program << ": error: " << error.what() << "\n";
    return kExitFailed;
  }
}

}  // namespace stepwise
