/// @file problems.hpp
/// The chapter's problem as the harness runs it: the keys (and values) on the device, the CPU
/// reference, and the check of a row's output. Host code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/device_buffer.hpp"
#include "host/harness.hpp"
#include "host/workspace.hpp"
#include "plan.hpp"
#include "sort.hpp"

namespace stepwise::sort {

/// One sort input with its reference and the buffers every row writes.
template <class K>
class SortProblem final : public Problem {
 public:
  /// n keys drawn as @p plan says from @p seed (make_keys), values with --pairs, and the
  /// workspace every row of both tables needs for them (workspace_bytes).
  SortProblem(std::size_t n, const Plan& plan, std::uint64_t seed);
  /// Given keys (the tests build keys make_keys does not draw: -0.0, NaN, INT_MIN); values
  /// with @p pairs.
  SortProblem(std::vector<K> keys, bool pairs);

  /// The digit bits passed to the rows that read --digit-bits (0: each row's own).
  void set_digit_bits(int bits) { digit_bits_ = bits; }

  std::string element_type() const override;
  /// Read the keys (and values) once, write them once.
  double bytes_moved() const override;
  void poison_output() override;
  /// The output against the reference (check_sorted), and the input as it was drawn.
  Check check_output() override;
  void run_cpu_reference() override;

  /// Runs @p stage on this problem's buffers.
  void launch(const SortStage<K>& stage, const LaunchShape& shape, cudaStream_t stream);
  const Sorted<K>& reference() const { return reference_; }
  /// The input keys, as the host drew them.
  const std::vector<K>& keys() const { return keys_; }

 private:
  std::vector<K> keys_;
  std::vector<Value> values_;
  Sorted<K> reference_, scratch_;
  std::vector<K> got_keys_;        ///< the host copy of a check, kept so that its pages stay mapped
  std::vector<Value> got_values_;  ///< the same for the values
  DeviceBuffer<K> keys_in_;
  DeviceBuffer<Value> values_in_;
  DeviceBuffer<K> keys_out_;
  DeviceBuffer<Value> values_out_;
  Workspace workspace_;
  int digit_bits_ = 0;
};

}  // namespace stepwise::sort
