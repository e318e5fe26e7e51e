#include "plan.hpp"

namespace stepwise::sort {

const char* to_string(KeyType key) {
  switch (key) {
    case KeyType::uint32:
      return "uint32";
    case KeyType::int32:
      return "int32";
    case KeyType::float32:
      return "float32";
    case KeyType::uint64:
      return "uint64";
  }
  return "?";
}

const char* to_string(Algorithm algorithm) { return algorithm == Algorithm::merge ? "merge" : "radix"; }

std::size_t key_bytes(KeyType key) { return key == KeyType::uint64 ? 8 : 4; }

double element_bytes(const Plan& plan) {
  return static_cast<double>(key_bytes(plan.key)) + (plan.pairs ? static_cast<double>(sizeof(Value)) : 0.0);
}

double host_bytes(const Plan& plan, std::uint64_t n) {
  const double elements = static_cast<double>(n);
  const double entry = 16.0;                   // a reference entry: the ordered bits and the input position
  return elements * element_bytes(plan) * 4.0  // the input, the reference, its rerun, the downloaded output
         + elements * entry * 2.0;             // the entries and the buffer they are merged into
}

}  // namespace stepwise::sort
