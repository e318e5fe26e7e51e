// Segmented scan: its table (add a stage by adding its file under stages/segscan and its row
// here), its problem, its --analyze and its entry in the registry.
#include "segscan.hpp"

#include <algorithm>
#include <utility>

#include "host/mode_options.hpp"
#include "host/sizes.hpp"
#include "registry.hpp"

namespace stepwise::segmented {

template <class T>
const std::vector<SegScanStage<T>>& segscan_stages() {
  static const std::vector<SegScanStage<T>> table = numbered<SegScanStage<T>>({
      segscan_thread<T>(),           // stages/segscan/01_thread_per_segment.cu
      segscan_single_pass<T>(),      // stages/segscan/02_single_pass.cu
      library_cub_scan_by_key<T>(),  // stages/segscan/lib_cub_scan_by_key.cu
  });
  return table;
}

template <class T>
SegScanProblem<T>::SegScanProblem(std::uint64_t n, const Plan& plan, std::uint64_t seed)
    : SegScanProblem(make_values<T>(n, seed), make_offsets(n, plan.segments, seed)) {}

template <class T>
SegScanProblem<T>::SegScanProblem(std::vector<T> values, std::vector<std::uint64_t> offsets)
    : values_(std::move(values)),
      offsets_(std::move(offsets)),
      stats_(segment_stats(offsets_)),
      reference_(segscan_reference(values_, offsets_)),
      values_in_(values_),
      offsets_in_(offsets_),
      ids_in_(segment_ids_of(offsets_)),
      out_(values_.size()),
      workspace_(std::max(single_pass_scan_bytes<T>(values_.size()), cub_scan_by_key_temp_bytes<T>(values_.size()))) {}

template <class T>
std::string SegScanProblem<T>::element_type() const {
  return std::is_integral_v<T> ? "int32" : sizeof(T) == 4 ? "float32" : "float64";
}

template <class T>
double SegScanProblem<T>::bytes_moved() const {
  return static_cast<double>(values_.size()) * (2.0 * sizeof(T) + sizeof(std::uint32_t));
}

template <class T>
void SegScanProblem<T>::launch(const SegScanStage<T>& stage, const LaunchShape& shape, cudaStream_t stream) {
  SegScanArgs<T> args;
  args.values = values_in_.data();
  args.offsets = offsets_in_.data();
  args.segment_ids = ids_in_.data();
  args.out = out_.data();
  args.n = values_.size();
  args.segments = offsets_.size() - 1;
  stage.launch(args, workspace_, shape, stream);
}

template class SegScanProblem<std::int32_t>;
template class SegScanProblem<float>;
template class SegScanProblem<double>;

namespace {

double host_bytes(const Plan& plan, std::uint64_t n) {
  const double items = static_cast<double>(n);
  const double value = static_cast<double>(value_bytes(plan.type));
  const double reference = plan.type == ValueType::int32 ? value : 16.0;  // exact values, or value and scale
  return items * (value + sizeof(std::uint32_t) + 2.0 * reference + value) +
         (expected_segments(n, plan.segments) + 1) * sizeof(std::uint64_t);
}

template <class T>
int run_typed(Session& session, const Plan& plan) {
  const std::uint64_t n = session.options().n;
  const double workspace =
      static_cast<double>(std::max(single_pass_scan_bytes<T>(n), cub_scan_by_key_temp_bytes<T>(n)));
  session.require_device_bytes(static_cast<double>(n) * (2.0 * sizeof(T) + sizeof(std::uint32_t)) +
                               (expected_segments(n, plan.segments) + 1) * sizeof(std::uint64_t) + workspace);
  SegScanProblem<T> problem(n, plan, session.options().seed);
  session.note(format_count(n) + " " + to_string(plan.type) + " items in " + format_count(problem.stats().segments) +
               " segments (" + to_string(plan.segments) + "); int32 sums wrap mod 2^32, floats are checked within " +
               "16 u x the sum of |x| of each prefix");
  return session.run(segscan_stages<T>(), problem);
}

}  // namespace

SegmentedProblem segscan_problem() {
  SegmentedProblem problem;
  problem.name = "segscan";
  problem.summary = "the inclusive scan of every segment, against cub::DeviceScan::InclusiveScanByKey";
  problem.stages = [](const Plan& plan) {
    return by_type(plan, [](auto value) { return describe(segscan_stages<decltype(value)>()); });
  };
  problem.validate = [](const Plan& plan, const CommonOptions& options) {
    if (expected_segments(options.n, plan.segments) > static_cast<double>(kMaxN))
      throw UsageError("--segments " + to_string(plan.segments) + " with " + n_as_given(options) +
                       ": more than 2^32 - 1 segments (segment ids are uint32)");
  };
  problem.host_bytes = host_bytes;
  problem.analyze = [](const Plan& plan, const CommonOptions& options) {
    return by_type(plan, [&](auto value) {
      return analyze_work(plan, options, planned_rows(facts_of(segscan_stages<decltype(value)>())));
    });
  };
  problem.run = [](Session& session, const Plan& plan) {
    return by_type(plan, [&](auto value) { return run_typed<decltype(value)>(session, plan); });
  };
  problem.sweep = {
      {"segscan uniform:32 f32", {"--problem", "segscan", "--type", "float32", "--segments", "uniform:32"}},
      {"segscan huge f32", {"--problem", "segscan", "--type", "float32", "--segments", "huge"}},
  };
  return problem;
}

#define SEGSCAN_TABLES(T, unused) template const std::vector<SegScanStage<T>>& segscan_stages<T>()
SEGMENTED_FOR_EACH_TYPE(SEGSCAN_TABLES, 0);
#undef SEGSCAN_TABLES

}  // namespace stepwise::segmented
