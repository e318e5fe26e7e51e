#include "problems.hpp"

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "host/host_memory.hpp"
#include "host/sizes.hpp"

namespace stepwise::join {
namespace {

/// The int32 whose bytes are all the poison byte.
std::int32_t poisoned_int32() {
  std::int32_t value;
  std::memset(&value, poison_byte<std::int32_t>(), sizeof value);
  return value;
}

/// @p got's first @p rows against @p want, and the rest still poisoned.
Check check_column(const std::vector<std::int32_t>& got, const std::vector<std::int32_t>& want, const char* column) {
  const std::vector<std::int32_t> written(got.begin(), got.begin() + static_cast<std::ptrdiff_t>(want.size()));
  Check check = compare_exact(written, want);
  if (!check.passed) return {false, std::string(column) + ": " + check.detail};
  const std::int32_t poison = poisoned_int32();
  for (std::size_t r = want.size(); r < got.size(); ++r)
    if (got[r] != poison)
      return {false, std::string(column) + ": row " + std::to_string(r) + " is past the join's end"};
  return {};
}

}  // namespace

JoinProblem::JoinProblem(const Plan& plan, std::uint64_t seed)
    : JoinProblem(make_input(plan.a_rows, plan.b_rows, plan.duplication, seed), plan.kind) {}

JoinProblem::JoinProblem(JoinInput input, JoinKind kind, std::size_t spare_rows)
    : kind_(kind),
      input_(std::move(input)),
      reference_(join_reference(input_, kind)),
      capacity_(reference_.size() + spare_rows),
      a_keys_(input_.a),
      b_keys_(input_.b),
      out_a_(capacity_),
      out_b_(capacity_),
      row_count_(1),
      workspace_(join_workspace_bytes(input_.a.size(), input_.b.size(), capacity_)) {}

std::string JoinProblem::element_type() const { return "int32 keys -> int32 index pairs"; }

double JoinProblem::bytes_moved() const {
  return 4.0 * static_cast<double>(input_.a.size() + input_.b.size()) + 8.0 * static_cast<double>(reference_.size());
}

void JoinProblem::poison_output() {
  poison(out_a_);
  poison(out_b_);
  poison(row_count_);
}

Check JoinProblem::check_output() {
  const unsigned long long rows = row_count_.download().at(0);
  if (rows != reference_.size())
    return {false, "the join counted " + std::to_string(rows) + " rows, want " + std::to_string(reference_.size())};
  const Check a = check_column(out_a_.download(), reference_.a_index, "A rows");
  if (!a.passed) return a;
  return check_column(out_b_.download(), reference_.b_index, "B rows");
}

void JoinProblem::run_cpu_reference() { scratch_ = join_reference(input_, kind_); }

void JoinProblem::launch(const JoinStage& stage, const LaunchShape& shape, cudaStream_t stream) {
  JoinArgs args;
  args.a_keys = a_keys_.data();
  args.b_keys = b_keys_.data();
  args.a_count = input_.a.size();
  args.b_count = input_.b.size();
  args.kind = kind_;
  args.out_a = out_a_.data();
  args.out_b = out_b_.data();
  args.capacity = capacity_;
  args.row_count = row_count_.data();
  stage.launch(args, workspace_, shape, stream);
}

JoinInput draw_input(const Plan& plan, std::uint64_t seed) {
  JoinInput input = make_input(plan.a_rows, plan.b_rows, plan.duplication, seed);
  const std::uint64_t rows = join_row_count(input, plan.kind);
  if (rows > kMaxRows)
    throw UsageError(plan.size_options + ": the " + std::string(to_string(plan.kind)) + " join of this input has " +
                     std::to_string(rows) + " rows, above 2^31 - 1 (int32 row indices): lower --dup or the sizes");
  return input;
}

int run_plan(Session& session, const Plan& plan) {
  // Memory first (the GPU's, the host's was checked before it opened), for the join the sizes
  // lead to expect; the input is drawn after, and its very join checked again.
  session.require_device_bytes(device_bytes_needed(plan, expected_rows(plan)), plan.size_options);
  JoinInput input = draw_input(plan, session.options().seed);
  const std::uint64_t rows = join_row_count(input, plan.kind);
  // Checked before the input was drawn with the rows expected; now with its very rows.
  require_host_bytes(host_bytes_needed(plan, static_cast<double>(rows)), plan.size_options);
  session.require_device_bytes(device_bytes_needed(plan, static_cast<double>(rows)), plan.size_options);
  JoinProblem problem(std::move(input), plan.kind);
  session.note(describe_input(plan) + ": " + format_count(rows) + " output rows");
  return session.run(join_stages(), problem);
}

}  // namespace stepwise::join
