#include "gpu_run.hpp"

#include <cstdio>
#include <string>

#include "case_guard.hpp"
#include "host/device.hpp"

namespace stepwise::testing {

bool only_lists(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument.rfind("--list", 0) == 0 || argument.rfind("-l", 0) == 0 || argument == "--help" || argument == "-h" ||
        argument == "-?" || argument.rfind("--count", 0) == 0 || argument == "-c")
      return true;
  }
  return false;
}

int run_gpu_test_cases(int argc, char** argv) {
  if (!only_lists(argc, argv)) {
    const DeviceProbe probe = probe_devices();
    if (probe.status == DeviceStatus::no_device || probe.status == DeviceStatus::no_driver) {
      std::printf("skipped: %s (GPU tests need one)\n", probe.message().c_str());
      return 77;
    }
    if (probe.status != DeviceStatus::ok) {
      std::printf("error: %s\n", probe.message().c_str());
      return 1;
    }
  }
  return run_test_cases(argc, argv);
}

}  // namespace stepwise::testing
