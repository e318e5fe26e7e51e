// The main of GPU test executables: exit 77 (skipped) without a GPU, then doctest's run with
// the rules of case_guard.hpp (gpu_run.hpp).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "gpu_run.hpp"

int main(int argc, char** argv) { return stepwise::testing::run_gpu_test_cases(argc, argv); }
