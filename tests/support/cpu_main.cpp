// The main of CPU test executables: doctest's run, with the rules of case_guard.hpp.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "case_guard.hpp"

int main(int argc, char** argv) { return stepwise::testing::run_test_cases(argc, argv); }
