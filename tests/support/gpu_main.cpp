// The main of GPU test executables. Without a GPU (or without a driver), running a test
// case exits with 77, which CTest reports as skipped; a driver too old for the runtime
// exits with 1 and says so. Listing the test cases (CTest discovery at build time) works
// everywhere. The run is doctest's, with the rules of case_guard.hpp.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "case_guard.hpp"
#include "host/device.hpp"

namespace {

bool only_lists(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument.rfind("--list", 0) == 0 || argument.rfind("-l", 0) == 0 || argument == "--help" || argument == "-h" ||
        argument == "-?" || argument.rfind("--count", 0) == 0 || argument == "-c")
      return true;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (!only_lists(argc, argv)) {
    const stepwise::DeviceProbe probe = stepwise::probe_devices();
    if (probe.status == stepwise::DeviceStatus::no_device || probe.status == stepwise::DeviceStatus::no_driver) {
      std::printf("skipped: %s (GPU tests need one)\n", probe.message().c_str());
      return 77;
    }
    if (probe.status != stepwise::DeviceStatus::ok) {
      std::printf("error: %s\n", probe.message().c_str());
      return 1;
    }
  }
  return stepwise::testing::run_test_cases(argc, argv);
}
