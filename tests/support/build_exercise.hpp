/// @file build_exercise.hpp
/// What the graders of the build exercises share (docs/exercises.md): a student writes stage N's
/// kernel from stage N - 1, and the grader runs the chapter's own GPU checks on the student's stage,
/// then times it beside the chapter's stage N (the solution) with the chapter's timing.
///
/// A grader links build_exercise_main.cpp, which calls require_student_stage() before it looks for
/// a GPU: an untouched student file fails at once (exit 1, its NotDoneYet message), on any machine;
/// then, as every GPU test, the grader exits with 77 without a GPU.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "gpu_checks.hpp"
#include "host/timing.hpp"

namespace stepwise::testing {

/// Defined by each build exercise's grader: builds the student's stage from its factory, and no
/// more (no GPU work). @throws NotDoneYet while the student file is untouched.
void require_student_stage();

/// The share of the solution's GB/s that the student's stage must reach.
inline constexpr double kSpeedGate = 0.90;
/// The rounds of the speed gate: each times the student's stage, then the solution's.
inline constexpr int kGateRounds = 3;

/// Prints one line of the grader's report, for a check made of @p tally's runs:
/// `exercise 01-4, <check>: 32 runs: PASS` (or `3 of 32 runs failed: FAIL`), and fails the test
/// case when nothing ran. @p check names what ran: the sizes, the shapes, the element type.
void report_check(const std::string& exercise, const std::string& check, const Tally& tally);

/// The sizes a check ran at, as its report line names them: `n = 2^26` for one size, else
/// `7 sizes, n = 1 to 2^20+3` (the first and the last of @p sizes, which must not be empty).
std::string size_range(const std::vector<std::size_t>& sizes);

/// One side of the speed gate: what the report line calls it, and its work (every launch of the
/// stage, on the given stream, on buffers it owns).
struct GatedStage {
  std::string name;  ///< `yours`, `stage 9`
  GpuWork work;
};

/// The speed gate. Times @p yours and @p solution as the chapter's harness times a row (GpuTimer,
/// timing.hpp: CUDA events, 3 warm-up runs, the median of 20, L2 flushed by a read before each),
/// alternately for kGateRounds rounds, and takes each side's median of its round medians. Both move
/// @p bytes, so the ratio of their GB/s is the inverse ratio of their times. Prints one line (the
/// size, both medians and GB/s, the ratio, the gate) and CHECKs that the ratio is at least @p gate.
/// @param exercise `01-4`
/// @param size the problem the work runs on, as the line shows it (`n = 2^26 uint32`)
/// @param bytes the bytes one run moves (the chapter's bytes_moved)
/// @param yours the student's stage
/// @param solution the chapter's stage N
/// @param gate the share of the solution's GB/s that passes (kSpeedGate)
void check_speed_gate(const std::string& exercise, const std::string& size, double bytes, const GatedStage& yours,
                      const GatedStage& solution, double gate = kSpeedGate);

}  // namespace stepwise::testing
