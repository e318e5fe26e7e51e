/// @file problems.hpp
/// The chapter's problem as the harness runs it: the input on the device, the buffers every row
/// writes, the CPU reference and the exact check, and the run of the table. Host code.
#pragma once

#include <memory>
#include <vector>

#include "divergence.hpp"
#include "host/device_buffer.hpp"
#include "host/harness.hpp"
#include "inputs.hpp"

namespace stepwise::divergence {

/// One input of workload W with its reference and the buffers every row uses.
template <class W>
class DivergeProblem final : public Problem {
 public:
  using Item = typename W::Item;
  /// @p input run for @p steps steps of @p work.
  DivergeProblem(const W& work, std::vector<Item> input, unsigned steps);

  std::string element_type() const override;
  /// Each step reads every element once and writes it once.
  double bytes_moved() const override;
  void poison_output() override;
  /// Exact: the work is integer arithmetic.
  Check check_output() override;
  void run_cpu_reference() override;

  /// Runs @p stage on this problem's buffers and scratch.
  void launch(const DivergeStage<W>& stage, const LaunchShape& shape, cudaStream_t stream);
  /// Whether stage 8's last run remapped.
  bool controlled_remapped() const { return remapped_ != 0; }
  /// The elements stage 5's last step moved (read back by the stage).
  std::size_t last_moved() { return workspace_->host_counters()[0]; }

 private:
  W work_;
  unsigned steps_;
  std::vector<Item> input_, reference_, scratch_;
  DeviceBuffer<Item> in_, out_, spare_;
  std::unique_ptr<RemapScratch> workspace_;
  int remapped_ = -1;
};

/// Builds the plan's problem on the device and runs its table through @p session.
/// @return kExitOk, or kExitFailed when a check failed.
int run_plan(Session& session, const Plan& plan);

}  // namespace stepwise::divergence
