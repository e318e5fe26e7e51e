/// @file sweep_report.hpp
/// The chapter's report: one row per stage and size, with the slowest GPU's time, the algorithm
/// bandwidth and the bus bandwidth (nccl-tests' definitions), and per stage the alpha-beta fit
/// over the sizes. Rendered as a table, markdown or JSON. Host code only: no CUDA header.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host/cli.hpp"
#include "host/types.hpp"
#include "model.hpp"

namespace stepwise::multigpu {

/// One stage at one size.
struct Measurement {
  int number = 0;  ///< the stage's number (0 for the library)
  std::string stage;
  RowKind kind = RowKind::kernel;
  std::uint64_t bytes = 0;          ///< per GPU
  std::uint64_t n = 0;              ///< elements per GPU
  std::optional<TimingStats> time;  ///< the slowest GPU's; absent when a check failed
  Verdict verdict = Verdict::pass;
  std::string detail;  ///< why the check failed
  /// algbw = bytes / time, in GB/s (1e9 bytes/s); 0 without a time.
  double algbw_gbps() const;
  /// busbw = algbw x 2 (G - 1) / G.
  double busbw_gbps(int gpus) const;
};

/// A stage's fit over the sizes it passed at.
struct StageFit {
  int number = 0;
  std::string stage;
  AlphaBeta fit;
};

/// Everything a run reports.
struct SweepReport {
  std::string chapter_title;
  /// The problem, as --problem names it: "allreduce" (bus bandwidth applies), "scan" or "sort".
  std::string problem = "allreduce";
  /// The table's heading, before " of <element type>": e.g. "all-reduce (sum)".
  std::string heading = "all-reduce (sum)";
  std::vector<std::string> devices;  ///< each GPU's name, in team order
  int gpus = 1;
  std::string element_type;
  std::string command;
  std::string date;
  std::uint64_t seed = 0;
  int reps = 0;
  std::vector<std::string> notes;
  std::vector<Measurement> rows;
};

/// The fit of every stage with at least two sizes that passed with a time.
std::vector<StageFit> fit_stages(const SweepReport& report);

/// @p report as a table (Format::table), markdown or JSON (csv is refused before a run).
std::string render_sweep(const SweepReport& report, Format format);

/// Writes @p report as the chapter's options ask: --json to its file, --output to its file with
/// the table on stdout, otherwise --format on stdout.
void emit_sweep(const SweepReport& report, const CommonOptions& options);

}  // namespace stepwise::multigpu
