#include "problems.hpp"

#include <cstring>
#include <utility>

#include "host/cli.hpp"

namespace stepwise::compaction {
namespace {

/// The value whose bytes are all @p byte.
template <class T>
T filled_with(unsigned char byte) {
  T value;
  std::memset(&value, byte, sizeof value);
  return value;
}

/// Input bytes per element: the key, and the flag and the value where there are.
double input_bytes(const Plan& plan) { return 4.0 + (plan.by_flags ? 1.0 : 0.0) + (plan.payload ? 4.0 : 0.0); }

}  // namespace

template <class K>
SelectProblem<K>::SelectProblem(std::size_t n, const Plan& plan, std::uint64_t seed)
    : SelectProblem(make_input<K>(n, plan.selectivity, plan.pattern, plan.payload, seed), plan) {}

template <class K>
SelectProblem<K>::SelectProblem(SelectInput<K> input, const Plan& plan)
    : plan_(plan),
      input_(std::move(input)),
      reference_(select_reference(input_, plan.by_flags)),
      keys_(input_.keys),
      flags_(plan.by_flags ? input_.flags : std::vector<std::uint8_t>{}),
      values_(input_.values),
      kept_keys_(input_.keys.size()),
      kept_values_(plan.payload ? input_.keys.size() : 0),
      kept_count_(1),
      workspace_(workspace_bytes<K>(input_.keys.size(), plan.payload)) {}

template <class K>
std::string SelectProblem<K>::element_type() const {
  return std::string(to_string(plan_.type)) + (plan_.payload ? " keys + int32 values" : "") +
         (plan_.by_flags ? " + uint8 flags" : "");
}

template <class K>
double SelectProblem<K>::bytes_moved() const {
  const double element = sizeof(K) + (plan_.payload ? sizeof(Payload) : 0.0);
  return static_cast<double>(input_.keys.size()) * input_bytes(plan_) +
         static_cast<double>(reference_.keys.size()) * element;
}

template <class K>
void SelectProblem<K>::poison_output() {
  poison(kept_keys_);
  poison(kept_values_);
  poison(kept_count_);
}

template <class K>
Check SelectProblem<K>::check_output() {
  const std::uint64_t count = kept_count_.download().at(0);
  return check_selection(kept_keys_.download(), kept_values_.download(), count, reference_, ordered_,
                         filled_with<K>(poison_byte<K>()), filled_with<Payload>(poison_byte<Payload>()));
}

template <class K>
void SelectProblem<K>::run_cpu_reference() {
  scratch_ = select_reference(input_, plan_.by_flags);
}

template <class K>
void SelectProblem<K>::launch(const SelectStage<K>& stage, const LaunchShape& shape, cudaStream_t stream) {
  ordered_ = stage.traits.keeps_input_order;
  SelectArgs<K> args;
  args.keys = keys_.data();
  args.flags = flags_.data();
  args.values = values_.data();
  args.kept_keys = kept_keys_.data();
  args.kept_values = kept_values_.data();
  args.kept_count = kept_count_.data();
  args.n = input_.keys.size();
  args.first_poll_ns = plan_.first_poll_ns;
  args.speculative = plan_.speculative_load;
  args.guess_shift = guess_shift_;
  stage.launch(args, workspace_, shape, stream);
}

std::string order_note(const std::vector<SelectRow>& rows) {
  const auto unordered = [](const SelectRow& row) { return !row.traits.keeps_input_order; };
  const auto ordered = [](const SelectRow& row) { return row.traits.keeps_input_order; };
  return describe_stage_numbers(kernel_numbers_where(rows, unordered)) +
         " keep the elements in the order their atomics are served, checked as a multiset; " +
         describe_stage_numbers(kernel_numbers_where(rows, ordered)) +
         " and the library keep the input order, checked exactly";
}

template class SelectProblem<std::int32_t>;
template class SelectProblem<float>;

}  // namespace stepwise::compaction
