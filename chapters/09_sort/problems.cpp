#include "problems.hpp"

#include <cstring>
#include <utility>

namespace stepwise::sort {

template <class K>
SortProblem<K>::SortProblem(std::size_t n, const Plan& plan, std::uint64_t seed)
    : SortProblem(make_keys<K>(n, plan.input, seed), plan.pairs) {
  digit_bits_ = plan.digit_bits;
}

template <class K>
SortProblem<K>::SortProblem(std::vector<K> keys, bool pairs)
    : keys_(std::move(keys)),
      values_(pairs ? make_values(keys_.size()) : std::vector<Value>{}),
      reference_(sort_reference(keys_, values_)),
      keys_in_(keys_),
      values_in_(values_),
      keys_out_(keys_.size()),
      values_out_(values_.size()),
      workspace_(workspace_bytes<K>(keys_.size(), pairs)) {}

template <class K>
std::string SortProblem<K>::element_type() const {
  const char* key = sizeof(K) == 8                         ? "uint64"
                    : std::is_same<K, float>::value        ? "float32"
                    : std::is_same<K, std::int32_t>::value ? "int32"
                                                           : "uint32";
  return std::string(key) + (values_.empty() ? " keys" : " keys + int32 values");
}

template <class K>
double SortProblem<K>::bytes_moved() const {
  const double element = sizeof(K) + (values_.empty() ? 0.0 : sizeof(Value));
  return 2.0 * element * static_cast<double>(keys_.size());
}

template <class K>
void SortProblem<K>::poison_output() {
  poison(keys_out_);
  poison(values_out_);
}

template <class K>
Check SortProblem<K>::check_output() {
  keys_out_.download_into(got_keys_);
  values_out_.download_into(got_values_);
  const Check sorted = check_sorted(got_keys_, got_values_, reference_);
  if (!sorted.passed) return sorted;
  keys_in_.download_into(got_keys_);
  values_in_.download_into(got_values_);
  if (std::memcmp(got_keys_.data(), keys_.data(), keys_.size() * sizeof(K)) != 0 || got_values_ != values_)
    return {false, "the input keys or values were modified"};
  return sorted;
}

template <class K>
void SortProblem<K>::run_cpu_reference() {
  scratch_ = sort_reference(keys_, values_);
}

template <class K>
void SortProblem<K>::launch(const SortStage<K>& stage, const LaunchShape& shape, cudaStream_t stream) {
  SortArgs<K> args;
  args.keys_in = keys_in_.data();
  args.keys_out = keys_out_.data();
  args.values_in = values_.empty() ? nullptr : values_in_.data();
  args.values_out = values_.empty() ? nullptr : values_out_.data();
  args.n = keys_.size();
  args.digit_bits = digit_bits_;
  stage.launch(args, workspace_, shape, stream);
}

template class SortProblem<std::uint32_t>;
template class SortProblem<std::int32_t>;
template class SortProblem<float>;
template class SortProblem<std::uint64_t>;

}  // namespace stepwise::sort
