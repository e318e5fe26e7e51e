// The main of the build exercises' graders (build_exercise.hpp): the student's stage first, on any
// machine (an untouched student file exits with 1 and its NotDoneYet message, before any GPU work),
// then the run of every GPU test (77 without a GPU).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <exception>

#include "build_exercise.hpp"
#include "gpu_run.hpp"
#include "host/exercise.hpp"

int main(int argc, char** argv) {
  if (!stepwise::testing::only_lists(argc, argv)) {
    try {
      stepwise::testing::require_student_stage();
    } catch (const stepwise::NotDoneYet& not_done) {
      std::printf("ERROR: %s\n", not_done.what());
      return 1;
    } catch (const std::exception& error) {
      std::printf("ERROR: the student's stage could not be built: %s\n", error.what());
      return 1;
    }
  }
  return stepwise::testing::run_gpu_test_cases(argc, argv);
}
