#include "plan.hpp"

#include "algorithm/merge_sort.hpp"

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

RowModel row_model(const SortRow& row, const Plan& plan, std::uint64_t n) {
  const SortTraits& traits = row.traits;
  const int key_bits = static_cast<int>(8 * key_bytes(plan.key));
  const int digit_bits = changed_by(row, "--digit-bits") && plan.digit_bits != 0 ? plan.digit_bits : traits.digit_bits;
  RowModel model;
  if (digit_bits > 0)
    model.passes = static_cast<std::uint64_t>((key_bits + digit_bits - 1) / digit_bits);
  else if (traits.first_run > 0)
    model.passes = static_cast<std::uint64_t>(merge_sort_passes(n, static_cast<std::uint64_t>(traits.first_run)));
  model.launches = model.passes * static_cast<std::uint64_t>(traits.launches_per_pass) +
                   static_cast<std::uint64_t>(traits.launches_per_sort);
  model.key_bytes = static_cast<double>(key_bytes(plan.key)) * static_cast<double>(n) *
                    (static_cast<double>(model.passes) * (traits.key_reads_per_pass + traits.key_writes_per_pass) +
                     traits.key_reads_per_sort + traits.key_writes_per_sort);
  return model;
}

double host_bytes(const Plan& plan, std::uint64_t n) {
  const double elements = static_cast<double>(n);
  const double entry = 16.0;                   // a reference entry: the ordered bits and the input position
  return elements * element_bytes(plan) * 4.0  // the input, the reference, its rerun, the downloaded output
         + elements * entry * 2.0;             // the entries and the buffer they are merged into
}

}  // namespace stepwise::sort
