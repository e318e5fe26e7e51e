/// @file problems.hpp
/// The chapter's problem as the harness runs it: the input on the device, the CPU reference,
/// the check of a row's output (exact for the ordered rows, as a multiset for the unordered
/// ones), and the note that says which rows are checked how. Host code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compaction.hpp"
#include "host/device_buffer.hpp"
#include "host/harness.hpp"
#include "host/workspace.hpp"
#include "plan.hpp"

namespace stepwise::compaction {

/// One compaction input with its reference and the buffers every row writes.
template <class K>
class SelectProblem final : public Problem {
 public:
  /// n elements drawn as @p plan says from @p seed (make_input), with the workspace every row of
  /// the tables needs for them (workspace_bytes).
  SelectProblem(std::size_t n, const Plan& plan, std::uint64_t seed);
  /// A given input (the tests build inputs make_input does not draw); @p plan says its form
  /// and whether it has a payload.
  SelectProblem(SelectInput<K> input, const Plan& plan);

  std::string element_type() const override;
  /// Read the input once (keys, and the flags or payload), write the kept elements once.
  double bytes_moved() const override;
  void poison_output() override;
  Check check_output() override;
  void run_cpu_reference() override;

  /// Runs @p stage on this problem's buffers (and remembers whether it keeps the input order, for
  /// the check).
  void launch(const SelectStage<K>& stage, const LaunchShape& shape, cudaStream_t stream);
  const Selection<K>& reference() const { return reference_; }
  /// For the tests: the speculative row guesses tile blockIdx.x + @p shift (1: every guess wrong).
  void set_guess_shift(unsigned shift) { guess_shift_ = shift; }

 private:
  Plan plan_;
  SelectInput<K> input_;
  Selection<K> reference_, scratch_;
  DeviceBuffer<K> keys_;
  DeviceBuffer<std::uint8_t> flags_;
  DeviceBuffer<Payload> values_;
  DeviceBuffer<K> kept_keys_;
  DeviceBuffer<Payload> kept_values_;
  DeviceBuffer<unsigned long long> kept_count_;
  Workspace workspace_;
  bool ordered_ = true;
  unsigned guess_shift_ = 0;
};

/// The report's note on how each row's output is checked, from the rows' traits: `stages 1-3
/// and 8 keep the elements in the order their atomics are served, checked as a multiset; stages
/// 4-7 and the library keep the input order, checked exactly`.
std::string order_note(const std::vector<SelectRow>& rows);

}  // namespace stepwise::compaction
