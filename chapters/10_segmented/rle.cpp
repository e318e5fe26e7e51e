// Run-length encoding: its table (add a stage by adding its file under stages/rle and its row
// here), its keys, reference and problem, and its entry in the registry.
#include "rle.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <utility>

#include "host/mode_options.hpp"
#include "host/sizes.hpp"
#include "registry.hpp"

namespace stepwise::segmented {

template <class T>
const std::vector<RleStage<T>>& rle_stages() {
  static const std::vector<RleStage<T>> table = numbered<RleStage<T>>({
      rle_single_pass<T>(),     // stages/rle/01_single_pass.cu
      library_cub_encode<T>(),  // stages/rle/lib_cub_encode.cu
      library_cub_unique<T>(),  // stages/rle/lib_cub_unique.cu
  });
  return table;
}

template <class T>
std::vector<T> run_keys(const std::vector<T>& keys, const std::vector<std::uint64_t>& offsets) {
  std::vector<T> out(offsets.back());
  bool any = false;
  T last{};
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    if (offsets[s + 1] == offsets[s]) continue;  // an empty segment is no run
    T key = keys[s];
    if (any && key == last) {
      if constexpr (std::is_integral_v<T>)
        key = static_cast<T>(static_cast<std::uint32_t>(key) + 1u);  // wraps as defined
      else
        key = key + T(1);
    }
    std::fill(out.begin() + static_cast<std::ptrdiff_t>(offsets[s]),
              out.begin() + static_cast<std::ptrdiff_t>(offsets[s + 1]), key);
    last = key;
    any = true;
  }
  return out;
}

template <class T>
void rle_reference(const std::vector<T>& keys, std::vector<T>& unique, std::vector<std::uint32_t>& counts) {
  unique.clear();
  counts.clear();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i == 0 || !(keys[i] == keys[i - 1])) {
      unique.push_back(keys[i]);
      counts.push_back(0);
    }
    ++counts.back();
  }
}

namespace {

/// n keys in runs drawn as @p spec draws segments, one key per segment.
template <class T>
std::vector<T> draw_run_keys(std::uint64_t n, const SegmentSpec& spec, std::uint64_t seed) {
  const std::vector<std::uint64_t> offsets = make_offsets(n, spec, seed);
  return run_keys(make_values<T>(offsets.size() - 1, seed), offsets);
}

}  // namespace

template <class T>
RleProblem<T>::RleProblem(std::uint64_t n, const Plan& plan, std::uint64_t seed)
    : RleProblem(draw_run_keys<T>(n, plan.segments, seed)) {}

template <class T>
RleProblem<T>::RleProblem(std::vector<T> keys)
    : keys_(std::move(keys)),
      keys_in_(keys_),
      unique_out_(keys_.size()),
      counts_out_(keys_.size()),
      runs_out_(1),
      workspace_(std::max({rle_single_pass_bytes<T>(keys_.size()), cub_encode_temp_bytes<T>(keys_.size()),
                           cub_unique_temp_bytes<T>(keys_.size())})) {
  rle_reference(keys_, unique_, counts_);
}

template <class T>
std::string RleProblem<T>::element_type() const {
  return std::is_integral_v<T> ? "int32" : sizeof(T) == 4 ? "float32" : "float64";
}

template <class T>
double RleProblem<T>::bytes_moved() const {
  return static_cast<double>(keys_.size()) * sizeof(T) +
         static_cast<double>(unique_.size()) * (sizeof(T) + sizeof(std::uint32_t));
}

template <class T>
void RleProblem<T>::poison_output() {
  poison(unique_out_);
  poison(counts_out_);
  poison(runs_out_);
}

template <class T>
Check RleProblem<T>::check_output() {
  const std::int64_t runs = runs_out_.download()[0];
  if (runs != static_cast<std::int64_t>(unique_.size()))
    return {false, "run count " + std::to_string(runs) + ", want " + std::to_string(unique_.size())};
  std::vector<T> got = unique_out_.download();
  got.resize(unique_.size());
  // Keys compare as bit patterns: a run's key is copied, never computed.
  if (std::memcmp(got.data(), unique_.data(), unique_.size() * sizeof(T)) != 0) {
    const Check keys = compare_exact(got, unique_);
    return {false, "run keys: " + keys.detail};
  }
  if (!check_counts_) return {};
  std::vector<std::uint32_t> lengths = counts_out_.download();
  lengths.resize(counts_.size());
  const Check counts = compare_exact(lengths, counts_);
  if (!counts.passed) return {false, "run lengths: " + counts.detail};
  return {};
}

template <class T>
void RleProblem<T>::launch(const RleStage<T>& stage, const LaunchShape& shape, cudaStream_t stream) {
  check_counts_ = stage.traits.writes_counts;
  RleArgs<T> args;
  args.keys = keys_in_.data();
  args.unique = unique_out_.data();
  args.counts = stage.traits.writes_counts ? counts_out_.data() : nullptr;
  args.runs = runs_out_.data();
  args.n = keys_.size();
  stage.launch(args, workspace_, shape, stream);
}

template class RleProblem<std::int32_t>;
template class RleProblem<float>;
template class RleProblem<double>;

namespace {

double host_bytes(const Plan& plan, std::uint64_t n) {
  const double items = static_cast<double>(n);
  const double value = static_cast<double>(value_bytes(plan.type));
  const double segments = expected_segments(n, plan.segments);
  // The keys, the offsets and per-segment keys they are drawn from, the reference and its rerun
  // (a key and a length per run), the downloaded keys and lengths.
  return items * value + (segments + 1) * (sizeof(std::uint64_t) + value) +
         4.0 * segments * (value + sizeof(std::uint32_t)) + items * (value + sizeof(std::uint32_t));
}

/// Whether @p stage takes @p n keys (a row with max_items takes at most that many).
template <class T>
bool takes(const RleStage<T>& stage, std::uint64_t n) {
  return stage.traits.max_items == 0 || n <= stage.traits.max_items;
}

template <class T>
int run_typed(Session& session, const Plan& plan) {
  const std::uint64_t n = session.options().n;
  const double workspace = static_cast<double>(
      std::max({rle_single_pass_bytes<T>(n), cub_encode_temp_bytes<T>(n), cub_unique_temp_bytes<T>(n)}));
  session.require_device_bytes(static_cast<double>(n) * (2.0 * sizeof(T) + sizeof(std::uint32_t)) + workspace);
  RleProblem<T> problem(n, plan, session.options().seed);
  session.note(format_count(n) + " " + to_string(plan.type) + " keys in " + format_count(problem.runs()) +
               " runs (the non-empty segments of " + to_string(plan.segments) +
               "); keys and lengths are checked exactly, cub::Unique's keys and count only");
  std::vector<RleStage<T>> rows;
  for (const RleStage<T>& stage : rle_stages<T>()) {
    if (!takes(stage, n))
      session.note(stage.name + " left out: it takes at most " + format_count(stage.traits.max_items) + " keys");
    else
      rows.push_back(stage);
  }
  return session.run(rows, problem);
}

/// Refuses a --stage selection whose every row takes fewer keys than --n: the run would build the
/// input, then time nothing. A selection with one row that takes --n runs, the others left out.
void validate(const Plan& plan, const CommonOptions& options) {
  if (options.stages.empty()) return;
  by_type(plan, [&](auto value) {
    std::string too_small;
    for (const RleStage<decltype(value)>& stage : rle_stages<decltype(value)>()) {
      if (!options.selects(stage.name)) continue;
      if (takes(stage, options.n)) return;
      too_small += (too_small.empty() ? "" : ", ") + stage.name + " takes at most " +
                   format_count(stage.traits.max_items) + " keys";
    }
    if (!too_small.empty()) throw UsageError("--stage with " + n_as_given(options) + ": " + too_small);
  });
}

}  // namespace

SegmentedProblem rle_problem() {
  SegmentedProblem problem;
  problem.name = "rle";
  problem.summary = "run-length encoding of runs drawn by --segments, against cub::DeviceRunLengthEncode";
  problem.stages = [](const Plan& plan) {
    return by_type(plan, [](auto value) { return describe(rle_stages<decltype(value)>()); });
  };
  problem.validate = validate;
  problem.host_bytes = host_bytes;
  problem.analyze = [](const Plan& plan, const CommonOptions& options) {
    return by_type(plan, [&](auto value) {
      return analyze_work(plan, options, planned_rows(facts_of(rle_stages<decltype(value)>())));
    });
  };
  problem.run = [](Session& session, const Plan& plan) {
    return by_type(plan, [&](auto value) { return run_typed<decltype(value)>(session, plan); });
  };
  problem.sweep = {
      {"rle uniform:32 int32", {"--problem", "rle", "--type", "int32", "--segments", "uniform:32"}},
  };
  return problem;
}

#define RLE_TABLES(T, unused)                                                                    \
  template const std::vector<RleStage<T>>& rle_stages<T>();                                      \
  template std::vector<T> run_keys<T>(const std::vector<T>&, const std::vector<std::uint64_t>&); \
  template void rle_reference<T>(const std::vector<T>&, std::vector<T>&, std::vector<std::uint32_t>&)
SEGMENTED_FOR_EACH_TYPE(RLE_TABLES, 0);
#undef RLE_TABLES

}  // namespace stepwise::segmented
