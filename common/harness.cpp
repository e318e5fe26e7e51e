#include "harness.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>

#include "check.hpp"
#include "sizes.hpp"

namespace stepwise {

Session::Session(const ChapterCli& cli) : cli_(cli) {
  const int count = cuda_device_count();
  if (count == 0) throw NoDeviceError("no CUDA-capable GPU found (or no working driver)");
  if (options().device >= count)
    throw UsageError("--device " + std::to_string(options().device) + ": only " + std::to_string(count) +
                     " device(s) present");
  STEPWISE_CUDA_CHECK(cudaSetDevice(options().device));
  device_ = describe_device(options().device);
  flusher_ = std::make_unique<L2Flusher>(device_.l2_bytes);
}

TimingOptions Session::timing() const {
  TimingOptions timing;
  timing.reps = options().reps;
  timing.warmup = options().warmup;
  timing.flush_l2 = !options().warm_cache;
  return timing;
}

double Session::memcpy_gbps() {
  if (memcpy_gbps_ == 0.0) {
    // Well above L2 (8x), so that the copy streams from DRAM even with a warm cache.
    const std::size_t bytes = std::max<std::size_t>(8 * device_.l2_bytes, std::size_t{256} << 20);
    TimingOptions timing = this->timing();
    timing.reps = std::max(timing.reps, 10);
    memcpy_gbps_ = measure_memcpy_gbps(bytes, timing, *flusher_);
  }
  return memcpy_gbps_;
}

void Session::require_device_bytes(double bytes) const {
  const double reserve = 64.0 * (1 << 20);  // CUB temporary storage, the runtime's own
  const double free_bytes = static_cast<double>(free_device_bytes());
  if (bytes + reserve > free_bytes)
    throw UsageError("--n " + std::to_string(options().n) + " needs " + format_bytes(bytes) + " of device memory; " +
                     format_bytes(free_bytes) + " is free on " + device_.name);
}

Report Session::new_report(const Problem& problem) {
  Report report;
  report.chapter_id = cli_.chapter().id;
  report.chapter_name = cli_.chapter().name;
  report.chapter_title = cli_.chapter().title;
  report.device = device_;
  report.n = options().n;
  report.element_type = problem.element_type();
  report.bytes_moved = problem.bytes_moved();
  report.memcpy_gbps = memcpy_gbps();
  report.l2_flushed = !options().warm_cache;
  report.date = today_iso();
  return report;
}

ReportRow Session::measure(const BoundStage& stage, Problem& problem) {
  ReportRow row;
  row.kind = stage.info.kind;
  row.number = stage.info.number;
  row.name = stage.info.name;
  row.lesson = stage.info.lesson;

  problem.poison_output();
  stage.work(nullptr);
  STEPWISE_CUDA_CHECK(cudaDeviceSynchronize());
  const Check before = problem.check_output();
  if (!before.passed) {
    row.check = "FAIL";
    row.check_detail = "before timing: " + before.detail;
    return row;  // a wrong stage is not timed
  }
  row.time = time_gpu(stage.work, timing(), *flusher_);
  const Check after = problem.check_output();
  row.check = after.passed ? "PASS" : "FAIL";
  if (!after.passed) row.check_detail = "after timing: " + after.detail;
  return row;
}

int Session::run_bound(const std::vector<BoundStage>& stages, Problem& problem) {
  Report report = new_report(problem);
  bool all_passed = true;
  for (const BoundStage& stage : stages) {
    if (!options().selects(stage.info.name)) continue;
    report.rows.push_back(measure(stage, problem));
    all_passed = all_passed && report.rows.back().check == "PASS";
  }
  if (options().selects("cpu")) {
    ReportRow row;
    row.kind = RowKind::cpu;
    row.name = "cpu reference";
    row.lesson = cli_.chapter().reference_lesson;
    row.time = time_cpu([&] { problem.run_cpu_reference(); }, std::min(options().reps, 3));
    row.check = "ref";
    report.rows.push_back(row);
  }
  derive_columns(report);
  publish(report);
  return all_passed ? kExitOk : kExitFailed;
}

void Session::publish(const Report& report) const {
  const Format format = options().format;
  if (options().output.empty()) {
    std::cout << render(report, format) << std::flush;
    return;
  }
  std::ofstream file(options().output);
  file << render(report, format);
  if (!file) throw std::runtime_error("could not write --output " + options().output);
  std::cout << render(report, Format::table) << std::flush;
}

int run_main(const char* program, const std::function<int()>& body) {
  try {
    return body();
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
