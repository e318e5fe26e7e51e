#include "plan.hpp"

#include <cstdio>

namespace stepwise::compaction {

const char* to_string(KeyType type) { return type == KeyType::float32 ? "float32" : "int32"; }

double host_bytes(const Plan& plan, std::uint64_t n) {
  const double elements = static_cast<double>(n);
  const double kept = plan.selectivity * elements;
  const double element = 4.0 + (plan.payload ? 4.0 : 0.0);    // a kept key, and its value
  return elements * (4.0 + 1.0 + (plan.payload ? 4.0 : 0.0))  // the input: keys, flags, values
         + 4.0 * kept * element                               // the reference and its rerun, each up to twice its size
         + elements * element                                 // the output the check downloads
         + 3.0 * 8.0 * kept;                                  // an unordered row's check: two sorted copies and scratch
}

std::string describe_input(const Plan& plan) {
  char percent[32];
  std::snprintf(percent, sizeof percent, "%g", plan.selectivity * 100.0);
  return std::string(percent) + " % kept (" + to_string(plan.pattern) + "), " +
         (plan.by_flags ? "by flag bytes" : "by key < 0") + (plan.payload ? ", int32 payload" : "");
}

}  // namespace stepwise::compaction
