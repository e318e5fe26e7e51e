/// @file setop_problem.hpp
/// The set operations as the harness runs them: the two multisets and the output on the device,
/// the output's length beside it, the CPU reference, the check, and the workspace every row
/// shares. Host code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/device_buffer.hpp"
#include "host/harness.hpp"
#include "host/workspace.hpp"
#include "setop.hpp"
#include "setop_data.hpp"

namespace stepwise::segmented {

/// One pair of sorted multisets, the operation, its reference, and the buffers every row writes:
/// the output at its bound (set_op_bound) and its length.
class SetOpProblem final : public Problem {
 public:
  /// @p sets (sorted) under @p op.
  SetOpProblem(SetInputs sets, SetOp op);

  std::string element_type() const override { return "int32"; }
  /// Read A and B once, write the output once.
  double bytes_moved() const override;
  void poison_output() override;
  /// The length first, then the keys exactly, then the poison past the length untouched.
  Check check_output() override;
  void run_cpu_reference() override { scratch_ = set_op_on_cpu(op_, sets_.a, sets_.b); }

  /// Runs @p stage on this problem's buffers.
  void launch(const SetOpStage& stage, const LaunchShape& shape, cudaStream_t stream);

  /// The reference's length.
  std::uint64_t output_count() const { return reference_.size(); }

 private:
  SetInputs sets_;
  SetOp op_;
  std::vector<SetKey> reference_, scratch_;
  DeviceBuffer<SetKey> a_in_;
  DeviceBuffer<SetKey> b_in_;
  DeviceBuffer<SetKey> out_;
  DeviceBuffer<std::int64_t> out_count_;
  Workspace workspace_;
};

/// The device bytes a run of @p n elements in all holds under @p op: inputs, the output at its
/// bound, the workspace (asks CUB: needs the CUDA runtime).
double setop_device_bytes(std::uint64_t n, SetInput input, SetOp op);

}  // namespace stepwise::segmented
