#include "problems.hpp"

#include <utility>

#include "chapter.hpp"
#include "host/sizes.hpp"
#include "options.hpp"

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
      workspace_(std::make_unique<RemapScratch>(input_.size(), sizeof(Item), cub_temp_bytes(input_.size()),
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
void DivergeProblem<W>::launch(const DivergeStage<W>& stage, const LaunchShape& shape, cudaStream_t stream) {
  DivergeArgs<W> args;
  args.work = work_;
  args.in = in_.data();
  args.out = out_.data();
  args.spare = spare_.data();
  args.n = input_.size();
  args.steps = steps_;
  args.remapped = &remapped_;
  stage.launch(args, *workspace_, shape, stream);
}

namespace {

/// The numbers of the rows of @p stages that do @p work on the host mid-run.
template <class W>
std::vector<int> doing(const std::vector<DivergeStage<W>>& stages, HostWork work) {
  std::vector<int> numbers;
  for (const DivergeStage<W>& stage : stages)
    if (stage.traits.host_work == work) numbers.push_back(stage.number);
  return numbers;
}

/// What the report says about the rows that work on the host mid-run.
template <class W>
std::string host_work_note(const std::vector<DivergeStage<W>>& stages) {
  const std::vector<int> reading = doing(stages, HostWork::reads_count);
  const std::vector<int> computing = doing(stages, HostWork::computes_remaps);
  std::vector<std::string> parts;
  if (!reading.empty())
    parts.push_back(describe_stage_numbers(reading) + (reading.size() == 1 ? " reads" : " read") +
                    " a count back to the host mid-run (to size the sort, to decide)");
  if (!computing.empty())
    parts.push_back(describe_stage_numbers(computing) + (computing.size() == 1 ? " computes its" : " compute their") +
                    " remaps on the host between launches");
  if (parts.empty()) return "";
  return (parts.size() == 1 ? parts[0] : parts[0] + ", and " + parts[1]) +
         ": they are timed without holding the stream, so their times include that host work and the launches "
         "after it";
}

template <class W>
int run_table(Session& session, const Plan& plan, const W& work, std::vector<typename W::Item> input) {
  DivergeProblem<W> problem(work, std::move(input), plan.steps);
  session.note(format_count(session.options().n) + " elements, " + describe_workload(plan));
  const std::string note = host_work_note(diverge_stages<W>());
  if (!note.empty()) session.note(note);
  return session.run(diverge_stages<W>(), problem);
}

/// The host-side view of @p stages: each row's StageInfo and traits.
template <class W>
std::vector<StageFacts> facts_of(const std::vector<DivergeStage<W>>& stages) {
  std::vector<StageFacts> facts;
  for (const DivergeStage<W>& stage : stages) facts.push_back({stage, stage.traits});
  return facts;
}

}  // namespace

std::vector<StageInfo> stage_infos(const Plan& plan) {
  return plan.workload == WorkloadKind::mutation ? describe(diverge_stages<Mutation>())
                                                 : describe(diverge_stages<Synthetic>());
}

std::vector<StageFacts> stage_facts(const Plan& plan) {
  return plan.workload == WorkloadKind::mutation ? facts_of(diverge_stages<Mutation>())
                                                 : facts_of(diverge_stages<Synthetic>());
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
