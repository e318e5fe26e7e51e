// The set operations: the problem, --analyze and the entry in the registry (the table and the
// workspace are setop.cu's, the stages stages/setop/*.cu).
#include "setop_problem.hpp"

#include <map>
#include <string>
#include <utility>

#include "host/cli.hpp"
#include "host/host_memory.hpp"
#include "host/sizes.hpp"
#include "host/verify.hpp"
#include "registry.hpp"
#include "setop_analysis.hpp"

namespace stepwise::segmented {

SetOpProblem::SetOpProblem(SetInputs sets, SetOp op)
    : sets_(std::move(sets)),
      op_(op),
      reference_(set_op_on_cpu(op_, sets_.a, sets_.b)),
      a_in_(sets_.a),
      b_in_(sets_.b),
      out_(set_op_bound(op_, sets_.a.size(), sets_.b.size())),
      out_count_(1),
      workspace_(setop_workspace_bytes(sets_.a.size(), sets_.b.size())) {}

double SetOpProblem::bytes_moved() const {
  return static_cast<double>(sets_.a.size() + sets_.b.size() + reference_.size()) * sizeof(SetKey);
}

void SetOpProblem::poison_output() {
  poison(out_);
  poison(out_count_);
}

Check SetOpProblem::check_output() {
  const std::int64_t count = out_count_.download()[0];
  if (count < 0 || static_cast<std::uint64_t>(count) != reference_.size())
    return {false, "output length " + std::to_string(count) + ", expected " + std::to_string(reference_.size())};
  std::vector<SetKey> out = out_.download();
  const auto* bytes = reinterpret_cast<const unsigned char*>(out.data());
  for (std::size_t i = static_cast<std::size_t>(count) * sizeof(SetKey); i < out.size() * sizeof(SetKey); ++i)
    if (bytes[i] != poison_byte<SetKey>())
      return {false, "wrote past the output's length " + std::to_string(count) + ": element " +
                         std::to_string(i / sizeof(SetKey))};
  out.resize(static_cast<std::size_t>(count));
  return compare_exact(out, reference_);
}

void SetOpProblem::launch(const SetOpStage& stage, const LaunchShape& shape, cudaStream_t stream) {
  SetOpArgs args;
  args.op = op_;
  args.a = a_in_.data();
  args.b = b_in_.data();
  args.out = out_.data();
  args.out_count = out_count_.data();
  args.a_count = sets_.a.size();
  args.b_count = sets_.b.size();
  stage.launch(args, workspace_, shape, stream);
}

double setop_device_bytes(std::uint64_t n, SetInput input, SetOp op) {
  const auto [a_count, b_count] = set_sizes(n, input);
  return static_cast<double>(n + set_op_bound(op, a_count, b_count)) * sizeof(SetKey) +
         static_cast<double>(setop_workspace_bytes(a_count, b_count));
}

namespace {

SetOp op_of(const Plan& plan) { return plan.set_op.value_or(SetOp::intersection); }
SetInput sets_of(const Plan& plan) { return plan.sets.value_or(SetInput::interleaved); }

void add_options(ChapterCli& cli, Plan& plan) {
  CLI::App& app = cli.app();
  std::map<std::string, SetOp> ops(set_op_names().begin(), set_op_names().end());
  app.add_option_function<SetOp>(
         "--op", [&plan](const SetOp& op) { plan.set_op = op; },
         "setop: intersection, union, difference or symmetric_difference (std::set_*'s multiset counts)")
      ->transform(CLI::CheckedTransformer(ops))
      ->default_str("intersection");
  std::map<std::string, SetInput> inputs(set_input_names().begin(), set_input_names().end());
  app.add_option_function<SetInput>(
         "--sets", [&plan](const SetInput& sets) { plan.sets = sets; },
         "setop inputs: disjoint, identical, interleaved, duplicates (about 16 copies of each key), empty_a, empty_b, "
         "skew (|B| = |A| / 1000); --n counts A and B together, int32 keys")
      ->transform(CLI::CheckedTransformer(inputs))
      ->default_str("interleaved");
}

void validate_unpicked(const Plan& plan) {
  if (plan.set_op) throw UsageError(std::string("--op ") + to_string(*plan.set_op) + ": only --problem setop reads it");
  if (plan.sets) throw UsageError(std::string("--sets ") + to_string(*plan.sets) + ": only --problem setop reads it");
}

/// Inputs, the reference and its scratch copy, and the downloaded output at its bound.
double host_bytes(const Plan&, std::uint64_t n) { return 5.0 * sizeof(SetKey) * static_cast<double>(n); }

std::string analyze(const Plan& plan, const CommonOptions& options) {
  const SetInputs sets = make_sets(options.n, sets_of(plan), options.seed);
  if (options.format == Format::json)
    return analyze_set_op_json(op_of(plan), sets_of(plan), options.seed, sets, facts_of(setop_stages()));
  return analyze_set_op(op_of(plan), sets, facts_of(setop_stages()));
}

int run(Session& session, const Plan& plan) {
  const std::uint64_t n = session.options().n;
  session.require_device_bytes(setop_device_bytes(n, sets_of(plan), op_of(plan)));
  SetInputs sets = make_sets(n, sets_of(plan), session.options().seed);
  const std::uint64_t a_count = sets.a.size();
  const std::uint64_t b_count = sets.b.size();
  SetOpProblem problem(std::move(sets), op_of(plan));
  session.note(std::string("set_") + to_string(op_of(plan)) + " of " + format_count(a_count) + " and " +
               format_count(b_count) + " sorted int32 keys (" + to_string(sets_of(plan)) +
               "): " + format_count(problem.output_count()) +
               " out; GB/s counts the inputs read once and the output written once");
  return session.run(setop_stages(), problem);
}

}  // namespace

SegmentedProblem setop_problem() {
  SegmentedProblem problem;
  problem.name = "setop";
  problem.summary = "set operations on sorted multisets (--op, --sets), against thrust::set_*";
  problem.stages = [](const Plan&) { return describe(setop_stages()); };
  problem.add_options = add_options;
  problem.validate_unpicked = validate_unpicked;
  problem.host_bytes = host_bytes;
  problem.analyze = analyze;
  problem.run = run;
  problem.sweep = {
      {"setop intersection interleaved", {"--problem", "setop", "--op", "intersection", "--sets", "interleaved"}},
      {"setop union duplicates", {"--problem", "setop", "--op", "union", "--sets", "duplicates"}},
  };
  return problem;
}

}  // namespace stepwise::segmented
