#include "problems.hpp"

#include <cstdint>
#include <string>
#include <type_traits>

#include "algorithm/load_balance.hpp"
#include "algorithm/sorted_search.hpp"
#include "host/device_buffer.hpp"
#include "host/sizes.hpp"
#include "inputs.hpp"
#include "merge.hpp"

namespace stepwise::merge {
namespace {

template <class K>
const char* key_name() {
  return std::is_same_v<K, std::int64_t> ? "int64" : "int32";
}

/// A merge of A and B (keys, or key-value pairs) with its reference.
template <class K>
class MergeProblem final : public Problem {
 public:
  MergeProblem(const Sizes& sizes, Distribution distribution, bool pairs, std::uint64_t seed)
      : pairs_(pairs),
        input_(sorted_arrays<K>(sizes.a, sizes.b, distribution, seed)),
        a_values_(pairs ? pair_values(0, sizes.a, seed) : std::vector<Value>()),
        b_values_(pairs ? pair_values(sizes.a, sizes.b, seed) : std::vector<Value>()),
        want_keys_(sizes.a + sizes.b),
        want_values_(pairs ? sizes.a + sizes.b : 0),
        a_keys_device_(input_.a),
        b_keys_device_(input_.b),
        a_values_device_(a_values_),
        b_values_device_(b_values_),
        out_keys_(sizes.a + sizes.b),
        out_values_(pairs ? sizes.a + sizes.b : 0),
        workspace_(make_merge_workspace<K>(sizes.a, sizes.b, pairs)) {
    merge_reference(input_.a, a_values_, input_.b, b_values_, want_keys_, want_values_);
    scratch_keys_.resize(want_keys_.size());
    scratch_values_.resize(want_values_.size());
  }
  std::string element_type() const override {
    return std::string(key_name<K>()) + (pairs_ ? " keys + int32 values" : " keys");
  }
  std::uint64_t reported_n(std::uint64_t) const override { return want_keys_.size(); }  // |A| + |B|
  double bytes_moved() const override {
    const double element = sizeof(K) + (pairs_ ? sizeof(Value) : 0.0);
    return 2.0 * element * static_cast<double>(want_keys_.size());  // read A and B, write the merge
  }
  void poison_output() override {
    poison(out_keys_);
    if (pairs_) poison(out_values_);
  }
  Check check_output() override {
    return check_merge(out_keys_.download(), pairs_ ? out_values_.download() : std::vector<Value>(), want_keys_,
                       want_values_);
  }
  void run_cpu_reference() override {
    merge_reference(input_.a, a_values_, input_.b, b_values_, scratch_keys_, scratch_values_);
  }
  /// Runs one row of the table on this problem's buffers.
  void launch(const MergeStage<K>& stage, const LaunchShape& shape, cudaStream_t stream) {
    stage.launch(a_keys_device_.data(), pairs_ ? a_values_device_.data() : nullptr, b_keys_device_.data(),
                 pairs_ ? b_values_device_.data() : nullptr, out_keys_.data(), pairs_ ? out_values_.data() : nullptr,
                 input_.a.size(), input_.b.size(), workspace_, shape, stream);
  }

 private:
  bool pairs_;
  SortedArrays<K> input_;
  std::vector<Value> a_values_, b_values_;
  std::vector<K> want_keys_, scratch_keys_;
  std::vector<Value> want_values_, scratch_values_;
  DeviceBuffer<K> a_keys_device_, b_keys_device_;
  DeviceBuffer<Value> a_values_device_, b_values_device_;
  DeviceBuffer<K> out_keys_;
  DeviceBuffer<Value> out_values_;
  Workspace workspace_;
};

/// A sorted search of needles (A) in a haystack (B) with its reference.
template <class K>
class SearchProblem final : public Problem {
 public:
  SearchProblem(const Sizes& sizes, Distribution distribution, Bounds bounds, std::uint64_t seed)
      : bounds_(bounds),
        input_(sorted_arrays<K>(sizes.a, sizes.b, distribution, seed)),
        want_(sizes.a),
        scratch_(sizes.a),
        needles_(input_.a),
        haystack_(input_.b),
        out_(sizes.a),
        workspace_(partition_workspace_bytes(sizes.a + sizes.b)) {
    search_into(want_);
  }
  std::string element_type() const override { return std::string(key_name<K>()) + " keys"; }
  std::uint64_t reported_n(std::uint64_t) const override { return input_.a.size() + input_.b.size(); }
  double bytes_moved() const override {  // read needles and haystack, write one int32 per needle
    return static_cast<double>(sizeof(K)) * static_cast<double>(input_.a.size() + input_.b.size()) +
           static_cast<double>(sizeof(std::int32_t)) * static_cast<double>(input_.a.size());
  }
  void poison_output() override { poison(out_); }
  Check check_output() override { return compare_exact(out_.download(), want_); }
  void run_cpu_reference() override { search_into(scratch_); }
  /// Runs one row of the table on this problem's buffers.
  void launch(const SearchStage<K>& stage, const LaunchShape& shape, cudaStream_t stream) {
    stage.launch(needles_.data(), haystack_.data(), out_.data(), input_.a.size(), input_.b.size(), bounds_, workspace_,
                 shape, stream);
  }

 private:
  void search_into(std::vector<std::int32_t>& out) const {
    if (bounds_ == Bounds::upper)
      sorted_search<Bounds::upper>(input_.a.data(), input_.a.size(), input_.b.data(), input_.b.size(), out.data(),
                                   Less{});
    else
      sorted_search<Bounds::lower>(input_.a.data(), input_.a.size(), input_.b.data(), input_.b.size(), out.data(),
                                   Less{});
  }

  Bounds bounds_;
  SortedArrays<K> input_;
  std::vector<std::int32_t> want_, scratch_;
  DeviceBuffer<K> needles_, haystack_;
  DeviceBuffer<std::int32_t> out_;
  Workspace workspace_;
};

/// A load-balancing search of items over objects with its reference.
class LbsProblem final : public Problem {
 public:
  LbsProblem(const Sizes& sizes, Distribution distribution, std::uint64_t seed)
      : items_(sizes.b),
        offsets_(lbs_offsets(sizes.a, sizes.b, distribution, seed)),
        want_objects_(sizes.b),
        want_ranks_(sizes.b),
        scratch_objects_(sizes.b),
        scratch_ranks_(sizes.b),
        offsets_device_(offsets_),
        objects_(sizes.b),
        ranks_(sizes.b),
        workspace_(partition_workspace_bytes(sizes.a + sizes.b)) {
    load_balance_search(offsets_.data(), offsets_.size(), items_, want_objects_.data(), want_ranks_.data());
  }
  std::string element_type() const override { return "int32 offsets + items"; }  // n = objects + items
  std::uint64_t reported_n(std::uint64_t) const override { return offsets_.size() + items_; }
  double bytes_moved() const override {  // read the offsets, write an object and a rank per item
    return 4.0 * static_cast<double>(offsets_.size()) + 8.0 * static_cast<double>(items_);
  }
  void poison_output() override {
    poison(objects_);
    poison(ranks_);
  }
  Check check_output() override {
    const Check objects = compare_exact(objects_.download(), want_objects_);
    if (!objects.passed) return {false, "objects: " + objects.detail};
    const Check ranks = compare_exact(ranks_.download(), want_ranks_);
    if (!ranks.passed) return {false, "ranks: " + ranks.detail};
    return ranks;
  }
  void run_cpu_reference() override {
    load_balance_search(offsets_.data(), offsets_.size(), items_, scratch_objects_.data(), scratch_ranks_.data());
  }
  /// Runs one row of the table on this problem's buffers.
  void launch(const LbsStage& stage, const LaunchShape& shape, cudaStream_t stream) {
    stage.launch(offsets_device_.data(), objects_.data(), ranks_.data(), offsets_.size(), items_, workspace_, shape,
                 stream);
  }

 private:
  std::size_t items_;
  std::vector<std::int32_t> offsets_;
  std::vector<std::int32_t> want_objects_, want_ranks_, scratch_objects_, scratch_ranks_;
  DeviceBuffer<std::int32_t> offsets_device_, objects_, ranks_;
  Workspace workspace_;
};

std::string sizes_note(const Plan& plan) {
  const std::string a = format_count(plan.sizes.a), b = format_count(plan.sizes.b);
  const std::string distribution = std::string(", distribution ") + to_string(plan.distribution);
  switch (plan.problem) {
    case ProblemKind::search:
      return a + " sorted needles in a haystack of " + b + " keys (|A| = " + a + ", |B| = " + b + "), " +
             (plan.bounds == Bounds::upper ? "upper" : "lower") + " bounds" + distribution;
    case ProblemKind::lbs:
      return a + " objects sharing " + b + " items (|A| = " + a + ", |B| = " + b + ")" + distribution;
    case ProblemKind::merge:
      break;
  }
  return "|A| = " + a + ", |B| = " + b + (plan.pairs ? " key-value pairs" : " keys") + distribution;
}

template <class K>
int run_merge(Session& session, const Plan& plan) {
  MergeProblem<K> problem(plan.sizes, plan.distribution, plan.pairs, session.options().seed);
  if (plan.pairs) session.note("--pairs: the cub row calls MergePairs, the thrust row merge_by_key");
  return session.run(merge_stages<K>(), problem);
}

template <class K>
int run_search(Session& session, const Plan& plan) {
  SearchProblem<K> problem(plan.sizes, plan.distribution, plan.bounds, session.options().seed);
  if (plan.bounds == Bounds::upper)
    session.note("--bound upper: the thrust::lower_bound row calls thrust::upper_bound");
  return session.run(search_stages<K>(), problem);
}

int run_lbs(Session& session, const Plan& plan) {
  LbsProblem problem(plan.sizes, plan.distribution, session.options().seed);
  return session.run(lbs_stages(), problem);
}

}  // namespace

std::vector<StageInfo> stage_infos(ProblemKind problem) {
  switch (problem) {
    case ProblemKind::search:
      return describe(search_stages<std::int32_t>());
    case ProblemKind::lbs:
      return describe(lbs_stages());
    case ProblemKind::merge:
      break;
  }
  return describe(merge_stages<std::int32_t>());
}

int run_plan(Session& session, const Plan& plan) {
  session.note(sizes_note(plan));
  switch (plan.problem) {
    case ProblemKind::search:
      return plan.wide_keys ? run_search<std::int64_t>(session, plan) : run_search<std::int32_t>(session, plan);
    case ProblemKind::lbs:
      return run_lbs(session, plan);
    case ProblemKind::merge:
      break;
  }
  return plan.wide_keys ? run_merge<std::int64_t>(session, plan) : run_merge<std::int32_t>(session, plan);
}

}  // namespace stepwise::merge
