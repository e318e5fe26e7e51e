/// @file segreduce_problem.hpp
/// Segmented reduce as the harness runs it: the values, offsets and segment ids on the device,
/// the CPU reference, the check, and the workspace every row shares. Host code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/device_buffer.hpp"
#include "host/harness.hpp"
#include "host/workspace.hpp"
#include "plan.hpp"
#include "reference.hpp"
#include "segreduce.hpp"

namespace stepwise::segmented {

/// One segmented reduce input with its reference and the buffers every row writes.
template <class T>
class SegReduceProblem final : public Problem {
 public:
  /// n values and offsets drawn as @p plan says from @p seed.
  SegReduceProblem(std::uint64_t n, const Plan& plan, std::uint64_t seed);
  /// Given values and offsets (the tests build segments no distribution draws).
  SegReduceProblem(std::vector<T> values, std::vector<std::uint64_t> offsets);

  std::string element_type() const override;
  /// Read the values and the offsets once, write one sum per segment.
  double bytes_moved() const override;
  void poison_output() override { poison(out_); }
  Check check_output() override { return check_against(out_.download(), reference_); }
  void run_cpu_reference() override { scratch_ = segreduce_reference(values_, offsets_); }

  /// Runs @p stage on this problem's buffers.
  void launch(const SegReduceStage<T>& stage, const LaunchShape& shape, cudaStream_t stream);

  const SegmentStats& stats() const { return stats_; }

 private:
  std::vector<T> values_;
  std::vector<std::uint64_t> offsets_;
  SegmentStats stats_;
  Expected<T> reference_, scratch_;
  DeviceBuffer<T> values_in_;
  DeviceBuffer<std::uint64_t> offsets_in_;
  DeviceBuffer<std::uint32_t> ids_in_;
  DeviceBuffer<T> out_;
  Workspace workspace_;
};

/// The device bytes a run of @p plan over @p n items holds (before the inputs exist: from
/// expected_segments).
double segreduce_device_bytes(const Plan& plan, std::uint64_t n);

}  // namespace stepwise::segmented
