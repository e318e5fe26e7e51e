/// @file case_guard.hpp
/// The doctest run of every stepwise test executable (cpu_main.cpp, gpu_main.cpp): doctest's own,
/// plus the rules that keep a CTest test from passing without running what it names.
#pragma once

namespace stepwise::testing {

/// The option CTest passes to run one test case: `--stepwise-case=NAME`.
inline constexpr const char* kCaseOption = "--stepwise-case=";

/// Runs doctest on @p argc, @p argv, and then enforces:
/// - at least one test case ran (a filter that matches none fails, exit code 1);
/// - every test case that ran made at least one assertion (CHECK, REQUIRE, ...), unless it failed
///   or logged a MESSAGE starting with `stepwise-skip:`; otherwise the exit code is 1;
/// - with `--stepwise-case=NAME` (what tests/support/discover_tests.cmake registers, one CTest test
///   per test case): the test cases named exactly NAME run and no other does. NAME is passed to
///   doctest's filter with `,` and `\` escaped; doctest still reads `*` and `?` as wildcards and
///   ignores case, so a NAME that also matched another case is an error (exit 1), as is a NAME
///   that matched none. When every check passed and a case logged `stepwise-skip:`, the exit code
///   is 77 (CTest: skipped), so that a skip can never hide a failure.
/// Queries (--help, --list-test-cases, --count, ...) run as doctest runs them.
/// @return the process's exit code.
int run_test_cases(int argc, char** argv);

}  // namespace stepwise::testing
