#include "plan.hpp"

#include <algorithm>

namespace stepwise::atomics {
const char* to_string(ProblemKind problem) { return problem == ProblemKind::ticket ? "ticket" : "histogram"; }

const char* to_string(OpKind op) {
  switch (op) {
    case OpKind::float_add:
      return "float-add";
    case OpKind::double_cas:
      return "double-cas";
    case OpKind::int_add:
      break;
  }
  return "int-add";
}

const std::vector<OpKind>& all_ops() {
  static const std::vector<OpKind> ops = {OpKind::int_add, OpKind::float_add, OpKind::double_cas};
  return ops;
}

const std::vector<int>& surface_keys_per_warp() {
  static const std::vector<int> keys = {1, 2, 4, 8, 16, 32};
  return keys;
}

ChapterInfo chapter_info(ProblemKind problem) {
  ChapterInfo info;
  info.id = "05";
  info.name = "atomics";
  info.default_n = kDefaultN;
  info.min_n = 1;
  if (problem == ProblemKind::ticket) {
    info.title = "the filter's ticket: one atomicAdd per kept value, or one per warp (ballot + popc)";
    info.reference_lesson = "a sequential filter: the kept values in input order";
  } else {
    info.title =
        "warp-aggregated atomics: a histogram from one atomic per element to one per key per warp, against CUB";
    info.reference_lesson = "a sequential scatter-add: bins[key] += value in input order (double accumulators)";
  }
  return info;
}

namespace {

/// Bytes of one value of the plan's widest operation (0 for a count).
double value_bytes(const Plan& plan) {
  const std::vector<OpKind> ops = plan.surface ? plan.surface_ops : std::vector<OpKind>{plan.op};
  double widest = 0.0;
  for (OpKind op : ops) widest = std::max(widest, op == OpKind::double_cas ? 8.0 : op == OpKind::float_add ? 4.0 : 0.0);
  return widest;
}

}  // namespace

double host_bytes(const Plan& plan, std::uint64_t n) {
  const double elements = static_cast<double>(n);
  if (plan.problem == ProblemKind::ticket)
    return 4.0 * elements     // the values
           + 8.0 * elements   // the kept values, sorted, and their rerun (a vector grown by push_back)
           + 4.0 * elements;  // the output downloaded by the check
  const double bins = static_cast<double>(plan.bins);
  return (sizeof(Key) + value_bytes(plan)) * elements  // keys and values
         + 2.0 * 24.0 * bins                           // the reference (sum, magnitude, count) and its rerun
         + 8.0 * bins                                  // zipf's cumulative weights
         + 16.0 * bins;                                // the bins downloaded by the check, and what it compares to
}

double device_bytes(const Plan& plan, std::uint64_t n) {
  const double elements = static_cast<double>(n);
  if (plan.problem == ProblemKind::ticket) return 8.0 * elements;
  const double bin_bytes = value_bytes(plan) == 8.0 ? 8.0 : 4.0;
  return (sizeof(Key) + value_bytes(plan)) * elements + bin_bytes * static_cast<double>(plan.bins);
}

double analysis_host_bytes(const Plan& plan, std::uint64_t n) {
  return static_cast<double>(sizeof(Key)) * static_cast<double>(std::min(n, kMaxAnalyzedKeys)) +
         8.0 * static_cast<double>(plan.bins);
}

}  // namespace stepwise::atomics
