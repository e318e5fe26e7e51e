/// @file registry.hpp
/// The problems of the chapter (--problem): each is a table of its own, with its own operands,
/// reference, analysis and library rows, written in its own files and registered by one line
/// in registry.cpp. The chapter's spec (chapter.cpp) reads only this interface: it never names
/// a problem. Host code only: no CUDA header.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host/harness.hpp"
#include "host/sweep_problems.hpp"
#include "plan.hpp"

namespace stepwise::segmented {

/// One problem of the chapter, as its own files define it (`SegmentedProblem name_problem()`).
struct SegmentedProblem {
  /// The value of --problem that picks it (`segreduce`).
  std::string name;
  /// One line for --help and the report: what it computes and against which library.
  std::string summary;
  /// Its table for @p plan (--type picks the instantiation), as --list and --stage see it.
  std::vector<StageInfo> (*stages)(const Plan& plan) = nullptr;
  /// Optional: adds the options only this problem reads, bound to their Plan fields.
  void (*add_options)(ChapterCli& cli, Plan& plan) = nullptr;
  /// Optional: refuses this problem's own options when another problem is picked.
  /// @throws UsageError naming what the user typed.
  void (*validate_unpicked)(const Plan& plan) = nullptr;
  /// Optional: the checks of @p plan this problem adds (an option it does not read).
  /// @throws UsageError naming what the user typed.
  void (*validate)(const Plan& plan, const CommonOptions& options) = nullptr;
  /// The host memory a run of @p plan over @p n items holds at its peak (input, offsets,
  /// reference, downloaded output).
  double (*host_bytes)(const Plan& plan, std::uint64_t n) = nullptr;
  /// --analyze: each stage's idle lanes and work per thread for @p plan's segments at --n.
  std::string (*analyze)(const Plan& plan, const CommonOptions& options) = nullptr;
  /// Builds the input, checks the device memory (Session::require_device_bytes) and runs the table.
  int (*run)(Session& session, const Plan& plan) = nullptr;
  /// Its problems of the size sweep (label and options, --problem included).
  std::vector<SweepProblem> sweep;
};

/// Every registered problem, in --help's order.
const std::vector<SegmentedProblem>& segmented_problems();

/// The registered problem named @p name.
/// @throws std::invalid_argument when none is.
const SegmentedProblem& find_problem(const std::string& name);

/// The names of the registered problems, joined by `|` (segreduce|segscan|...).
std::string problem_names();

}  // namespace stepwise::segmented
