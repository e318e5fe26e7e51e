#include "problems.hpp"

#include <algorithm>
#include <cstring>

#include "host/cli.hpp"
#include "host/sizes.hpp"
#include "surface.hpp"

namespace stepwise::atomics {

Check TicketProblem::check_output() {
  std::int32_t poison_value = 0;
  const unsigned char byte = poison_byte<std::int32_t>();
  std::memset(&poison_value, byte, sizeof(poison_value));
  return check_ticket(out_.download(), counter_.download().at(0), kept_, poison_value);
}

namespace {

/// The numbers of the rows of @p stages that privatize the bins in shared memory.
template <class Row>
std::vector<int> privatizing_stages(const std::vector<Row>& stages) {
  std::vector<int> numbers;
  for (const Row& stage : stages)
    if (stage.traits.privatizes_in_shared) numbers.push_back(stage.number);
  return numbers;
}

template <class Op>
int run_histogram(Session& session, const Plan& plan) {
  const std::size_t n = session.options().n;
  HistogramRows<Op> rows = histogram_rows<Op>(n, plan.bins);
  if (!rows.left_out.empty() &&
      std::none_of(rows.stages.begin(), rows.stages.end(),
                   [&](const auto& stage) { return session.options().selects(stage.name); }) &&
      !session.options().selects("cpu"))
    throw UsageError("--stage: nothing left to run: " + rows.left_out);
  session.require_device_bytes(device_bytes(plan, n) + static_cast<double>(rows.workspace_bytes), plan.sizes);
  HistogramProblem<Op> problem(n, plan.bins, plan.distribution, session.options().seed, rows.workspace_bytes);
  session.note(format_count(n) + " keys, distribution " + to_string(plan.distribution) + ", " +
               std::to_string(plan.bins) + " bins, --op " + Op::kName);
  if (!rows.left_out.empty()) session.note(rows.left_out);
  if (shared_bins_bytes(plan.bins, sizeof(typename Op::Bin)) > max_shared_bytes_per_block())
    session.note(describe_stage_numbers(privatizing_stages(rows.stages)) + ": " + std::to_string(plan.bins) +
                 " bins of " + std::to_string(sizeof(typename Op::Bin)) +
                 " B do not fit in one block's shared memory (" + std::to_string(max_shared_bytes_per_block() / 1024) +
                 " KiB): they aggregate into the global bins, without privatization");
  if constexpr (!std::is_same_v<Op, IntAdd>)
    session.note(std::string("no library row: cub::DeviceHistogram counts, it has no ") +
                 (Op::kHasValues && sizeof(typename Op::Value) == 4 ? "float" : "double") + " weights");
  return session.run(rows.stages, problem);
}

int run_ticket(Session& session, const Plan& plan) {
  const std::size_t n = session.options().n;
  session.require_device_bytes(device_bytes(plan, n), plan.sizes);
  TicketProblem problem(n, session.options().seed);
  session.note(format_count(n) + " random int32 values, the positive ones kept (about half)");
  return session.run(ticket_stages(), problem);
}

}  // namespace

int run_plan(Session& session, const Plan& plan) {
  if (plan.problem == ProblemKind::ticket) return run_ticket(session, plan);
  if (plan.surface) return run_surface(session, plan);
  switch (plan.op) {
    case OpKind::float_add:
      return run_histogram<FloatAdd>(session, plan);
    case OpKind::double_cas:
      return run_histogram<DoubleCas>(session, plan);
    case OpKind::int_add:
      break;
  }
  return run_histogram<IntAdd>(session, plan);
}

}  // namespace stepwise::atomics
