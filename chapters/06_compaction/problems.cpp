#include "problems.hpp"

#include <cstring>
#include <utility>

#include "host/sizes.hpp"

namespace stepwise::compaction {
namespace {

/// The value whose bytes are all @p byte.
template <class T>
T filled_with(unsigned char byte) {
  T value;
  std::memset(&value, byte, sizeof value);
  return value;
}

Form form_of(const Plan& plan) { return plan.by_flags ? Form::flags : Form::predicate; }

/// Input bytes per element: the key, and the flag and the value where there are.
double input_bytes(const Plan& plan) { return 4.0 + (plan.by_flags ? 1.0 : 0.0) + (plan.payload ? 4.0 : 0.0); }

template <class K>
int run_table(Session& session, const Plan& plan) {
  const std::size_t n = session.options().n;
  const std::size_t workspace = workspace_bytes<K>(n, plan.payload);
  session.require_device_bytes(static_cast<double>(n) * (input_bytes(plan) + 4.0 + (plan.payload ? 4.0 : 0.0)) +
                               static_cast<double>(workspace));
  SelectProblem<K> problem(n, plan, session.options().seed);
  Workspace scratch(workspace);
  session.note(format_count(n) + " " + to_string(plan.type) + " keys, " + describe_input(plan) + ": " +
               std::to_string(problem.reference().keys.size()) + " kept");
  session.note(
      "stages 1-3 and 8 keep the elements in the order their atomics are served, checked as a multiset; "
      "stages 4-7 and the library keep the input order, checked exactly");
  return session.run(select_stages<K>(form_of(plan)), problem,
                     [&](SelectLaunch<K> launch, const LaunchShape& shape, cudaStream_t stream) {
                       problem.launch(launch, scratch, shape, stream);
                     });
}

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
      kept_count_(1) {}

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
void SelectProblem<K>::launch(SelectLaunch<K> launch, Workspace& workspace, const LaunchShape& shape,
                              cudaStream_t stream) {
  ordered_ = keeps_input_order<K>(launch);
  SelectArgs<K> args;
  args.keys = keys_.data();
  args.flags = flags_.data();
  args.values = values_.data();
  args.kept_keys = kept_keys_.data();
  args.kept_values = kept_values_.data();
  args.kept_count = kept_count_.data();
  args.n = input_.keys.size();
  args.first_poll_ns = plan_.first_poll_ns;
  args.speculative = plan_.speculative;
  args.guess_shift = guess_shift_;
  launch(args, workspace, shape, stream);
}

std::vector<StageInfo> stage_infos(const Plan& plan) { return describe(select_stages<std::int32_t>(form_of(plan))); }

int run_plan(Session& session, const Plan& plan) {
  if (plan.type == KeyType::float32) return run_table<float>(session, plan);
  return run_table<std::int32_t>(session, plan);
}

template class SelectProblem<std::int32_t>;
template class SelectProblem<float>;

}  // namespace stepwise::compaction
