/// @file problems.hpp
/// The chapter's problems as the harness runs them: inputs on the device, the CPU reference,
/// the check of a row's output, and the run of a table or of the surface. Host code.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "atomics.hpp"
#include "host/device_buffer.hpp"
#include "host/harness.hpp"
#include "inputs.hpp"
#include "library_limit.hpp"
#include "plan.hpp"

namespace stepwise::atomics {

/// A scatter-add of n keys (and values, unless @p Op counts) into K bins, with its reference.
template <class Op>
class HistogramProblem final : public Problem {
 public:
  /// n keys into @p bin_count bins drawn from @p distribution and @p seed, with @p workspace_bytes
  /// of scratch for the rows (HistogramRows::workspace_bytes).
  HistogramProblem(std::size_t n, int bin_count, const Distribution& distribution, std::uint64_t seed,
                   std::size_t workspace_bytes = 0)
      : bin_count_(bin_count),
        keys_(make_keys(n, bin_count, distribution, seed)),
        values_(make_values<Op>(n, seed)),
        reference_(reference_bins(keys_, values_, bin_count)),
        keys_device_(keys_),
        values_device_(values_),
        bins_(static_cast<std::size_t>(bin_count)),
        workspace_(workspace_bytes) {}

  std::string element_type() const override {
    return std::string("int32 keys") +
           (Op::kHasValues ? (sizeof(typename Op::Value) == 4 ? " + float values" : " + double values") : "") + ", " +
           std::to_string(bin_count_) + " " + (Op::kHasValues ? "" : "int32 ") + "bins, " + Op::kName;
  }
  /// Read the keys (and values) once, write the bins once.
  double bytes_moved() const override {
    const double element = sizeof(Key) + (Op::kHasValues ? sizeof(typename Op::Value) : 0.0);
    return element * static_cast<double>(keys_.size()) + sizeof(typename Op::Bin) * static_cast<double>(bin_count_);
  }
  void poison_output() override { poison(bins_); }
  Check check_output() override { return check_bins<Op>(bins_.download(), reference_); }
  void run_cpu_reference() override { scratch_ = reference_bins(keys_, values_, bin_count_); }

  /// Runs @p stage on this problem's buffers.
  void launch(const HistogramStage<Op>& stage, const LaunchShape& shape, cudaStream_t stream) {
    stage.launch(keys_device_.data(), Op::kHasValues ? values_device_.data() : nullptr, bins_.data(), keys_.size(),
                 bin_count_, workspace_, shape, stream);
  }
  const std::vector<Key>& keys() const { return keys_; }
  const BinReference& reference() const { return reference_; }
  int bin_count() const { return bin_count_; }

 private:
  int bin_count_;
  std::vector<Key> keys_;
  std::vector<typename Op::Value> values_;
  BinReference reference_, scratch_;
  DeviceBuffer<Key> keys_device_;
  DeviceBuffer<typename Op::Value> values_device_;
  DeviceBuffer<typename Op::Bin> bins_;
  Workspace workspace_;
};

/// The rows of a histogram table that run at these sizes on this GPU, and the workspace they
/// share.
template <class Op>
struct HistogramRows {
  std::vector<HistogramStage<Op>> stages;  ///< histogram_stages<Op>(), less a library row left out
  std::size_t workspace_bytes = 0;         ///< CUB's temporary storage (IntAdd with its row), else 0
  std::string left_out;                    ///< why the library row is left out (the report's note); empty: none
};

/// The rows of histogram_stages<Op>() for @p n keys into @p bin_count bins: all of them, but the
/// CUB row where CUB would index its per-block bins past 2^31 - 1 (library_limit.hpp; it asks
/// CUB for its storage: needs a GPU).
template <class Op>
HistogramRows<Op> histogram_rows(std::size_t n, int bin_count) {
  HistogramRows<Op> rows;
  rows.stages = histogram_stages<Op>();
  if constexpr (std::is_same_v<Op, IntAdd>) {
    const std::size_t temp_bytes = cub_histogram_temp_bytes(n, bin_count);
    const std::uint64_t blocks = cub_histogram_blocks_of_temp(temp_bytes, bin_count);
    if (cub_histogram_offsets_fit(blocks, bin_count)) {
      rows.workspace_bytes = temp_bytes;
    } else {
      rows.left_out = cub_histogram_limit_note(n, bin_count, blocks);
      rows.stages.erase(std::remove_if(rows.stages.begin(), rows.stages.end(),
                                       [](const HistogramStage<Op>& stage) { return stage.kind == RowKind::library; }),
                        rows.stages.end());
    }
  }
  return rows;
}

/// The ticket problem: keep the positive values, with the kept values as the reference.
class TicketProblem final : public Problem {
 public:
  TicketProblem(std::size_t n, std::uint64_t seed)
      : values_(make_ticket_values(n, seed)), kept_(kept_sorted(values_)), in_(values_), out_(n), counter_(1) {}
  std::string element_type() const override { return "int32"; }
  /// Read n values, write the kept ones.
  double bytes_moved() const override { return 4.0 * static_cast<double>(values_.size() + kept_.size()); }
  void poison_output() override {
    poison(out_);
    poison(counter_);
  }
  Check check_output() override;
  void run_cpu_reference() override { scratch_ = kept_sorted(values_); }
  /// Runs @p stage on this problem's buffers.
  void launch(const TicketStage& stage, const LaunchShape& shape, cudaStream_t stream) {
    stage.launch(in_.data(), out_.data(), counter_.data(), values_.size(), shape, stream);
  }

 private:
  std::vector<std::int32_t> values_, kept_, scratch_;
  DeviceBuffer<std::int32_t> in_, out_;
  DeviceBuffer<unsigned long long> counter_;
};

/// Builds the plan's problem on the device and runs its table (or, with --surface, the
/// surface) through @p session.
/// @return the exit code: kExitOk, or kExitFailed when a check failed.
int run_plan(Session& session, const Plan& plan);

}  // namespace stepwise::atomics
