/// @file gpu_run.hpp
/// The run of a GPU test executable (gpu_main.cpp, build_exercise_main.cpp): without a GPU (or
/// without a driver) it exits with 77, which CTest reports as skipped; a driver too old for the
/// runtime exits with 1 and says so. Listing the test cases (CTest discovery at build time)
/// works everywhere.
#pragma once

namespace stepwise::testing {

/// Whether @p argv only asks doctest a question (--list-test-cases, --help, --count, ...): no test
/// case runs, so no GPU is needed.
bool only_lists(int argc, char** argv);

/// Looks for a GPU (unless only_lists()), then runs the test cases with the rules of
/// case_guard.hpp. @return the process's exit code: 77 without a GPU.
int run_gpu_test_cases(int argc, char** argv);

}  // namespace stepwise::testing
