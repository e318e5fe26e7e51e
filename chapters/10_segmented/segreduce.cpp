// Segmented reduce: its table (add a stage by adding its file under stages/segreduce and its row
// here), its problem, its --analyze and its entry in the registry.
#include <algorithm>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "host/host_memory.hpp"
#include "host/launch.hpp"
#include "host/mode_options.hpp"
#include "host/sizes.hpp"
#include "registry.hpp"
#include "segreduce_problem.hpp"

namespace stepwise::segmented {

template <class T>
const std::vector<SegReduceStage<T>>& segreduce_stages() {
  static const std::vector<SegReduceStage<T>> table = numbered<SegReduceStage<T>>({
      segreduce_thread<T>(),              // stages/segreduce/01_thread_per_segment.cu
      segreduce_warp<T>(),                // stages/segreduce/02_warp_per_segment.cu
      segreduce_block<T>(),               // stages/segreduce/03_block_per_segment.cu
      segreduce_merge_path<T>(),          // stages/segreduce/04_merge_path.cu
      segreduce_tuned<T>(),               // stages/segreduce/05_tuned.cu
      library_cub_segmented_reduce<T>(),  // stages/segreduce/lib_cub_segmented_reduce.cu
      library_cub_reduce_by_key<T>(),     // stages/segreduce/lib_cub_reduce_by_key.cu
  });
  return table;
}

std::size_t merge_scratch_bytes(std::uint64_t n, std::uint64_t segments, std::size_t value_bytes) {
  const std::uint64_t threads = ceil_div(n + segments, kMinMergeSteps);
  const std::size_t carry = 8 + std::max<std::size_t>(value_bytes, 8);  // Carry<T>: segment, sum, padding
  return aligned_bytes((threads + 1) * sizeof(std::int64_t)) + aligned_bytes(threads * carry);
}

template <class T>
std::size_t library_scratch_bytes(std::uint64_t n, std::uint64_t segments) {
  const std::size_t by_key = aligned_bytes(cub_reduce_by_key_temp_bytes<T>(n)) +
                             aligned_bytes(segments * sizeof(std::uint32_t)) + aligned_bytes(segments * sizeof(T)) +
                             aligned_bytes(sizeof(std::int64_t));
  return std::max(aligned_bytes(cub_segmented_reduce_temp_bytes<T>(segments)), by_key);
}

template <class T>
std::size_t segreduce_workspace_bytes(std::uint64_t n, std::uint64_t segments) {
  return std::max(merge_scratch_bytes(n, segments, sizeof(T)), library_scratch_bytes<T>(n, segments));
}

std::vector<std::uint32_t> segment_ids_of(const std::vector<std::uint64_t>& offsets) {
  if (offsets.size() - 1 > kMaxN) throw std::length_error("more than 2^32 - 1 segments: their ids overflow uint32");
  std::vector<std::uint32_t> ids(offsets.back());
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
    std::fill(ids.begin() + static_cast<std::ptrdiff_t>(offsets[s]),
              ids.begin() + static_cast<std::ptrdiff_t>(offsets[s + 1]), static_cast<std::uint32_t>(s));
  return ids;
}

// The problem ---------------------------------------------------------------------------------

template <class T>
SegReduceProblem<T>::SegReduceProblem(std::uint64_t n, const Plan& plan, std::uint64_t seed)
    : SegReduceProblem(make_values<T>(n, seed), make_offsets(n, plan.segments, seed)) {}

template <class T>
SegReduceProblem<T>::SegReduceProblem(std::vector<T> values, std::vector<std::uint64_t> offsets)
    : values_(std::move(values)),
      offsets_(std::move(offsets)),
      stats_(segment_stats(offsets_)),
      reference_(segreduce_reference(values_, offsets_)),
      values_in_(values_),
      offsets_in_(offsets_),
      ids_in_(segment_ids_of(offsets_)),
      out_(offsets_.size() - 1),
      workspace_(segreduce_workspace_bytes<T>(values_.size(), offsets_.size() - 1)) {}

template <class T>
std::string SegReduceProblem<T>::element_type() const {
  return std::is_integral_v<T> ? "int32" : sizeof(T) == 4 ? "float32" : "float64";
}

template <class T>
double SegReduceProblem<T>::bytes_moved() const {
  const double segments = static_cast<double>(offsets_.size() - 1);
  return static_cast<double>(values_.size()) * sizeof(T) + (segments + 1) * sizeof(std::uint64_t) +
         segments * sizeof(T);
}

template <class T>
void SegReduceProblem<T>::launch(const SegReduceStage<T>& stage, const LaunchShape& shape, cudaStream_t stream) {
  SegReduceArgs<T> args;
  args.values = values_in_.data();
  args.offsets = offsets_in_.data();
  args.segment_ids = ids_in_.data();
  args.out = out_.data();
  args.n = values_.size();
  args.segments = offsets_.size() - 1;
  args.stats = stats_;
  stage.launch(args, workspace_, shape, stream);
}

template class SegReduceProblem<std::int32_t>;
template class SegReduceProblem<float>;
template class SegReduceProblem<double>;

namespace {

template <class T>
std::size_t workspace_for(const Plan& plan, std::uint64_t n) {
  return segreduce_workspace_bytes<T>(n, static_cast<std::uint64_t>(expected_segments(n, plan.segments)));
}

}  // namespace

double segreduce_device_bytes(const Plan& plan, std::uint64_t n) {
  const double items = static_cast<double>(n);
  const double segments = expected_segments(n, plan.segments);
  const double value = static_cast<double>(value_bytes(plan.type));
  const double workspace = plan.type == ValueType::int32     ? workspace_for<std::int32_t>(plan, n)
                           : plan.type == ValueType::float32 ? workspace_for<float>(plan, n)
                                                             : workspace_for<double>(plan, n);
  return items * (value + sizeof(std::uint32_t)) + (segments + 1) * sizeof(std::uint64_t) + segments * value +
         workspace;
}

namespace {

template <class T>
std::vector<SegReduceRow> rows_of() {
  return facts_of(segreduce_stages<T>());
}

std::vector<SegReduceRow> rows_of(const Plan& plan) {
  return by_type(plan, [](auto value) { return rows_of<decltype(value)>(); });
}

std::string analyze(const Plan& plan, const CommonOptions& options) {
  return analyze_work(plan, options, planned_rows(rows_of(plan)), LanesExample::segment_lanes);
}

double host_bytes(const Plan& plan, std::uint64_t n) {
  const double items = static_cast<double>(n);
  const double segments = expected_segments(n, plan.segments);
  const double value = static_cast<double>(value_bytes(plan.type));
  const double reference = plan.type == ValueType::int32 ? value : 16.0;  // exact values, or value and scale
  return items * (value + sizeof(std::uint32_t))                          // the values and the segment ids
         + (segments + 1) * sizeof(std::uint64_t)                         // the offsets
         + segments * (2.0 * reference + value);  // the reference, its rerun, the downloaded output
}

template <class T>
int run_typed(Session& session, const Plan& plan) {
  const std::uint64_t n = session.options().n;
  session.require_device_bytes(segreduce_device_bytes(plan, n));
  SegReduceProblem<T> problem(n, plan, session.options().seed);
  session.note(format_count(n) + " " + to_string(plan.type) + " items in " + format_count(problem.stats().segments) +
               " segments (" + to_string(plan.segments) + "); int32 sums wrap mod 2^32, floats are checked within " +
               "16 u x the sum of |x| of each segment");
  for (const SegReduceStage<T>& stage : segreduce_stages<T>())
    if (stage.traits.explain != nullptr) session.note(stage.traits.explain(problem.stats()));
  return session.run(segreduce_stages<T>(), problem);
}

void validate(const Plan& plan, const CommonOptions& options) {
  if (expected_segments(options.n, plan.segments) > static_cast<double>(kMaxN))
    throw UsageError("--segments " + to_string(plan.segments) + " with " + n_as_given(options) +
                     ": more than 2^32 - 1 segments (segment ids are uint32)");
}

}  // namespace

SegmentedProblem segreduce_problem() {
  SegmentedProblem problem;
  problem.name = "segreduce";
  problem.summary = "the sum of every segment, against cub::DeviceSegmentedReduce and ReduceByKey";
  problem.stages = [](const Plan& plan) {
    return by_type(plan, [](auto value) { return describe(segreduce_stages<decltype(value)>()); });
  };
  problem.validate = validate;
  problem.host_bytes = host_bytes;
  problem.analyze = analyze;
  problem.run = [](Session& session, const Plan& plan) {
    return by_type(plan, [&](auto value) { return run_typed<decltype(value)>(session, plan); });
  };
  problem.sweep = {
      {"segreduce uniform:32 f32", {"--problem", "segreduce", "--type", "float32", "--segments", "uniform:32"}},
      {"segreduce zipf:1.5 f32", {"--problem", "segreduce", "--type", "float32", "--segments", "zipf:1.5"}},
      {"segreduce huge f32", {"--problem", "segreduce", "--type", "float32", "--segments", "huge"}},
  };
  return problem;
}

#define SEGREDUCE_TABLES(T, unused)                                            \
  template const std::vector<SegReduceStage<T>>& segreduce_stages<T>();        \
  template std::size_t library_scratch_bytes<T>(std::uint64_t, std::uint64_t); \
  template std::size_t segreduce_workspace_bytes<T>(std::uint64_t, std::uint64_t)
SEGMENTED_FOR_EACH_TYPE(SEGREDUCE_TABLES, 0);
#undef SEGREDUCE_TABLES

}  // namespace stepwise::segmented
