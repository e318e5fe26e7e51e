/// @file problems.hpp
/// The chapter's problem as the harness runs it: the two key columns and the output on the
/// device, the CPU reference, the exact check of a row's pairs and count, and the run of the
/// table. Host code.
#pragma once

#include <cstdint>
#include <string>

#include "host/device_buffer.hpp"
#include "host/harness.hpp"
#include "inputs.hpp"
#include "join.hpp"
#include "options.hpp"

namespace stepwise::join {

/// One join: its input, its reference and the buffers every row writes.
class JoinProblem final : public Problem {
 public:
  /// The input @p plan describes, drawn from @p seed (make_input).
  JoinProblem(const Plan& plan, std::uint64_t seed);
  /// A given input (the tests build inputs make_input does not draw), joined as @p kind, into an
  /// output of the reference's rows plus @p spare_rows (rows the join must leave alone).
  JoinProblem(JoinInput input, JoinKind kind, std::size_t spare_rows = 0);

  std::string element_type() const override;
  /// Read both key columns once, write every output pair once (8 bytes a row).
  double bytes_moved() const override;
  void poison_output() override;
  /// The count and every pair exactly; the spare rows still poisoned.
  Check check_output() override;
  void run_cpu_reference() override;

  /// Runs @p stage on this problem's buffers and workspace.
  void launch(const JoinStage& stage, const LaunchShape& shape, cudaStream_t stream);
  const JoinPairs& reference() const { return reference_; }
  const JoinInput& input() const { return input_; }

 private:
  JoinKind kind_;
  JoinInput input_;
  JoinPairs reference_, scratch_;
  std::size_t capacity_;
  DeviceBuffer<std::int32_t> a_keys_, b_keys_;
  DeviceBuffer<std::int32_t> out_a_, out_b_;
  DeviceBuffer<unsigned long long> row_count_;
  Workspace workspace_;  ///< what every row needs for this problem (join_workspace_bytes)
};

/// The input @p plan describes, drawn from @p seed (make_input), once the GPU is open and the
/// memory of the expected join checked.
/// @throws UsageError when its join would have more than 2^31 - 1 rows (int32 row indices).
JoinInput draw_input(const Plan& plan, std::uint64_t seed);

/// Checks the memory of the join @p plan expects (the device's), draws its input (draw_input),
/// builds its problem on the device and runs the table through @p session.
/// @return kExitOk, or kExitFailed when a check failed.
/// @throws UsageError when the join of this very input does not fit in host or device memory
///   (the chapter has refused those whose expected join does not, before drawing the input).
int run_plan(Session& session, const Plan& plan);

}  // namespace stepwise::join
