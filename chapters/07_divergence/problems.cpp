#include "problems.hpp"

#include <utility>

#include "options.hpp"
#include "host/sizes.hpp"

namespace stepwise::divergence {

template <class W>
DivergeProblem<W>::DivergeProblem(const W& work, std::vector<Item> input, unsigned steps)
    : work_(work),
      steps_(steps),
      input_(std::move(input)),
      reference_(run_reference(work_, input_, steps_)),
      in_(input_),
      out_(input_.size()),
      spare_(input_.size()),
      workspace_(std::make_unique<Workspace>(input_.size(), sizeof(Item), cub_temp_bytes(input_.size()),
                                             !W::kPathReadsItem)) {}

template <class W>
std::string DivergeProblem<W>::element_type() const {
  return sizeof(Item) == 4 ? "uint32" : "128-bit genome";
}

template <class W>
double DivergeProblem<W>::bytes_moved() const {
  return 2.0 * static_cast<double>(input_.size()) * sizeof(Item) * steps_;
}

template <class W>
void DivergeProblem<W>::poison_output() {
  poison(out_);
  poison(spare_);
}

template <class W>
Check DivergeProblem<W>::check_output() {
  return compare_exact(out_.download(), reference_);
}

template <class W>
void DivergeProblem<W>::run_cpu_reference() {
  scratch_ = run_reference(work_, input_, steps_);
}

template <class W>
void DivergeProblem<W>::launch(DivergeLaunch<W> launch, const LaunchShape& shape, cudaStream_t stream) {
  DivergeArgs<W> args;
  args.work = work_;
  args.in = in_.data();
  args.out = out_.data();
  args.spare = spare_.data();
  args.n = input_.size();
  args.steps = steps_;
  args.remapped = &remapped_;
  launch(args, *workspace_, shape, stream);
}

namespace {

template <class W>
int run_table(Session& session, const Plan& plan, const W& work, std::vector<typename W::Item> input) {
  DivergeProblem<W> problem(work, std::move(input), plan.steps);
  session.note(format_count(session.options().n) + " elements, " + describe_workload(plan));
  session.note(
      "stages 5 and 8 read a count back to the host mid-run (to size the sort, to decide), and stage 6 computes "
      "its remaps on the host between launches: they are timed without holding the stream, so their times "
      "include that host work and the launches after it");
  const int code = session.run(diverge_stages<W>(), problem,
                               [&](DivergeLaunch<W> launch, const LaunchShape& shape, cudaStream_t stream) {
                                 problem.launch(launch, shape, stream);
                               });
  return code;
}

}  // namespace

std::vector<StageInfo> stage_infos(const Plan& plan) {
  return plan.workload == WorkloadKind::mutation ? describe(diverge_stages<Mutation>())
                                                 : describe(diverge_stages<Synthetic>());
}

int run_plan(Session& session, const Plan& plan) {
  const std::size_t n = session.options().n;
  const std::uint64_t seed = session.options().seed;
  session.require_device_bytes(device_bytes(plan, n) + static_cast<double>(cub_temp_bytes(n)));
  if (plan.workload == WorkloadKind::mutation)
    return run_table(session, plan, mutation_work(plan, seed), random_population(n, seed));
  return run_table(session, plan, synthetic_work(plan), synthetic_input(n, plan.paths, plan.divergence, seed));
}

template class DivergeProblem<Synthetic>;
template class DivergeProblem<Mutation>;

}  // namespace stepwise::divergence
